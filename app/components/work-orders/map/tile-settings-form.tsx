import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, TextField } from '~/app/components/ui';
import { Section, useSectionSave } from '~/app/components/work-orders/settings/shared';
import { OSM_TILES, type MapTiles } from '~/core/work-orders/map-tiles';

/** The form's intent on Settings → Work orders. */
export const MAP_TILES_INTENT = 'mapTiles';

/**
 * Settings → Work orders → Map: the tenant's tile server (a URL template and its attribution).
 * Empty means the instance's default, which the form names. Posted as a plain form.
 */
export function MapTileSettingsForm({
  custom,
  instanceDefault,
  canEdit,
}: {
  custom: MapTiles | null;
  instanceDefault: MapTiles;
  canEdit: boolean;
}) {
  const { t } = useTranslation('map');
  const save = useSectionSave(() => undefined);
  const [url, setUrl] = useState(custom?.url ?? '');
  const [attribution, setAttribution] = useState(custom?.attribution ?? '');
  const disabled = !canEdit;
  return (
    <Section id="wo-map-tiles" title={t('settings.title')} intro={t('settings.intro')}>
      <save.fetcher.Form method="post" className="mt-4 grid gap-4" noValidate key={JSON.stringify(custom)}>
        <input type="hidden" name="intent" value={MAP_TILES_INTENT} />
        <TextField
          name="url"
          label={t('settings.url')}
          value={url}
          onChange={setUrl}
          type="url"
          maxLength={500}
          isDisabled={disabled}
          placeholder={instanceDefault.url}
          description={t('settings.urlHelp', { example: OSM_TILES.url })}
          errorMessage={save.err('url')}
        />
        <TextField
          name="attribution"
          label={t('settings.attribution')}
          value={attribution}
          onChange={setAttribution}
          maxLength={300}
          isDisabled={disabled}
          placeholder={instanceDefault.attribution}
          errorMessage={save.err('attribution')}
        />
        <p className="text-sm break-all text-slate-600">
          {t('settings.default', { url: custom?.url ?? instanceDefault.url })}
        </p>
        {canEdit ? (
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="primary" isPending={save.busy}>
              {save.busy ? t('settings.saving') : t('settings.save')}
            </Button>
            {custom ? (
              <Button
                variant="secondary"
                isDisabled={save.busy}
                onPress={() => {
                  setUrl('');
                  setAttribution('');
                  void save.fetcher.submit({ intent: MAP_TILES_INTENT, url: '', attribution: '' }, { method: 'post' });
                }}
              >
                {t('settings.reset')}
              </Button>
            ) : null}
          </div>
        ) : null}
      </save.fetcher.Form>
    </Section>
  );
}
