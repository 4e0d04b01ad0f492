import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { data, Form, Link, redirect, useActionData, useNavigation, useSearchParams, useSubmit } from 'react-router';
import type { Route } from './+types/settings.articles.pricelist';
import { actionError } from '~/app/lib/action-error.server';
import { guard, requireAuth, run } from '~/app/lib/guard.server';
import { Button, ConfirmDialog, Select, TextField, useToast } from '~/app/components/ui';
import {
  deletePriceList,
  getPriceListDetails,
  savePriceListGroups,
  updatePriceList,
} from '~/core/articles/price-list.service';
import { isAppError } from '~/core/errors/app-error';
import { hasAccess } from '~/core/permissions/access';
import { PRICING_TYPES } from '~/core/pricing/price-lookup';
import { moneyInput } from '~/app/components/articles/format';
import { pageTitle } from '~/app/lib/page-title';

/**
 * Settings → one price list: its name, and per article group how it prices the group's articles
 * (a discount, or a markup on the purchase or sales price) by a percentage.
 */
export const middleware = guard({ permission: 'articles:read' });

/** "Not priced by this list" in the pricing-type select. */
const UNPRICED = 'none';

export async function loader({ params, context }: Route.LoaderArgs) {
  const auth = requireAuth(context);
  try {
    const details = await run(context, (ctx) => getPriceListDetails(ctx, params.id));
    return { ...details, canEdit: hasAccess(auth, { permission: 'articles:settings' }) };
  } catch (e) {
    if (isAppError(e) && e.status === 404) throw data('not found', { status: 404 });
    throw e;
  }
}

type ActionResult = {
  ok?: boolean;
  code?: string;
  fields?: Record<string, string[]>;
  usedBy?: Record<string, number>;
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const intent = form.get('intent');
  const groupIds = form.getAll('groupId').map(String);
  try {
    if (intent === 'delete') {
      await run(context, (ctx) => deletePriceList(ctx, params.id));
      return redirect('/settings/articles/pricelists');
    }
    // One transaction: the name and the group rules are saved together or not at all.
    await run(context, async (ctx) => {
      await updatePriceList(ctx, { id: params.id, title: form.get('title'), description: form.get('description') });
      await savePriceListGroups(ctx, {
        id: params.id,
        groups: groupIds.map((id) => {
          const type = String(form.get(`type.${id}`) ?? UNPRICED);
          return {
            articleGroupId: id,
            pricingType: type === UNPRICED ? null : type,
            value: String(form.get(`value.${id}`) ?? '').trim() || '0',
          };
        }),
      });
    });
    return data<ActionResult>({ ok: true });
  } catch (e) {
    // 409 PRICE_LIST_IN_USE carries what still uses the list (usedBy)
    const result = actionError<ActionResult>(e);
    // Rule errors come back by row index; the form names its fields by group id.
    const fields = result.data.fields;
    if (!fields) return result;
    return data<ActionResult>(
      {
        ...result.data,
        fields: Object.fromEntries(
          Object.entries(fields).map(([key, codes]) => {
            const m = /^groups\.(\d+)\.(\w+)$/.exec(key);
            return [m ? `${m[2] === 'value' ? 'value' : 'type'}.${groupIds[Number(m[1])]}` : key, codes];
          }),
        ),
      },
      result.init ?? undefined,
    );
  }
}

/** The page's `<title>` (app/lib/page-title.ts). */
export const handle = pageTitle('title.priceList', (d: Route.ComponentProps['loaderData']) => d.priceList.title, {
  within: 'settings.title',
});

export default function PriceListPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation('articles');
  const { t: tc } = useTranslation();
  const toast = useToast();
  const result = useActionData<ActionResult>();
  const navigation = useNavigation();
  const submit = useSubmit();
  const [params] = useSearchParams();
  const [confirming, setConfirming] = useState(false);
  const { priceList, groups, canEdit } = loaderData;
  const [types, setTypes] = useState<Record<string, string>>(() =>
    Object.fromEntries(groups.map((g) => [g.articleGroupId, g.pricingType ?? UNPRICED])),
  );
  useEffect(
    () => setTypes(Object.fromEntries(groups.map((g) => [g.articleGroupId, g.pricingType ?? UNPRICED]))),
    [groups],
  );
  const busy = navigation.state === 'submitting' ? navigation.formData?.get('intent') : null;

  useEffect(() => {
    if (!result) return;
    if (result.ok) toast.show({ kind: 'success', message: tc('SUCCESSFULLY_SAVED') });
    else if (result.code === 'PRICE_LIST_IN_USE') {
      const usedBy = Object.entries(result.usedBy ?? {})
        .map(([kind, count]) => t(`usedBy.${kind}`, { count }))
        .join(', ');
      toast.show({ kind: 'error', message: `${tc('PRICE_LIST_IN_USE')} ${usedBy}` });
    } else if (result.code) toast.show({ kind: 'error', message: tc(result.fields ? 'FAILED_TO_SAVE' : result.code) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);
  const err = (name: string) => result?.fields?.[name]?.map((k) => tc(k));
  const disabled = !canEdit;
  const typeItems = [
    { id: UNPRICED, label: t('pricingType.none') },
    ...PRICING_TYPES.map((p) => ({ id: p, label: t(`pricingType.${p}`) })),
  ];

  return (
    <section className="flex max-w-4xl flex-col gap-4">
      <Link to="/settings/articles/pricelists" className="self-start text-sm text-brand-700 underline">
        ← {t('priceLists.back')}
      </Link>
      <h1 className="text-2xl font-semibold break-words">{priceList.title}</h1>
      {params.get('created') ? (
        <p role="status" className="rounded-md bg-green-50 p-3 text-sm text-green-900">
          {t('priceLists.created')}
        </p>
      ) : null}
      <Form
        method="post"
        className="grid gap-6 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
        noValidate
      >
        <input type="hidden" name="intent" value="save" />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            name="title"
            label={t('priceLists.field.title')}
            defaultValue={priceList.title}
            isRequired
            isDisabled={disabled}
            errorMessage={err('title')}
          />
          <TextField
            name="description"
            label={t('priceLists.field.description')}
            defaultValue={priceList.description ?? ''}
            isDisabled={disabled}
            errorMessage={err('description')}
          />
        </div>
        <div className="grid gap-2">
          <h2 className="text-lg font-medium">{t('priceLists.groups')}</h2>
          <p className="text-sm text-slate-600">{t('priceLists.groups.help')}</p>
          {groups.length === 0 ? (
            <p className="text-sm text-slate-500">
              {t('priceLists.groups.none')}{' '}
              <Link to="/settings/articles/groups" className="text-brand-700 underline">
                {t('settings.groups')}
              </Link>
            </p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {groups.map((g) => (
                <li key={g.articleGroupId} className="grid items-start gap-2 py-3 sm:grid-cols-[1fr_14rem_9rem]">
                  <input type="hidden" name="groupId" value={g.articleGroupId} />
                  <p className="pt-1 sm:pt-7">
                    <span className="font-medium">{g.title}</span>
                    {g.displayName !== g.title ? <span className="text-slate-600"> · {g.displayName}</span> : null}
                  </p>
                  <Select
                    name={`type.${g.articleGroupId}`}
                    label={t('priceLists.field.pricingType', { group: g.title })}
                    selectedKey={types[g.articleGroupId] ?? UNPRICED}
                    onSelectionChange={(key) => setTypes((all) => ({ ...all, [g.articleGroupId]: String(key) }))}
                    isDisabled={disabled}
                    items={typeItems}
                    errorMessage={err(`type.${g.articleGroupId}`)}
                  />
                  <TextField
                    name={`value.${g.articleGroupId}`}
                    label={t('priceLists.field.percent', { group: g.title })}
                    inputMode="decimal"
                    defaultValue={moneyInput(g.value)}
                    isDisabled={disabled || types[g.articleGroupId] === UNPRICED}
                    errorMessage={err(`value.${g.articleGroupId}`)}
                  />
                </li>
              ))}
            </ul>
          )}
        </div>
        {canEdit ? (
          <div className="flex flex-col-reverse gap-2 border-t border-gray-100 pt-4 sm:flex-row sm:justify-between">
            <Button variant="danger" onPress={() => setConfirming(true)} isPending={busy === 'delete'}>
              {t('delete')}
            </Button>
            <Button type="submit" variant="primary" isPending={busy === 'save'}>
              {t('save')}
            </Button>
          </div>
        ) : null}
        {priceList.customerCount || priceList.objectCount ? (
          <p className="text-sm text-slate-600">
            {t('priceLists.inUse', {
              usedBy: [
                priceList.customerCount ? t('usedBy.customers', { count: priceList.customerCount }) : null,
                priceList.objectCount ? t('usedBy.objects', { count: priceList.objectCount }) : null,
              ]
                .filter(Boolean)
                .join(', '),
            })}
          </p>
        ) : null}
      </Form>
      <ConfirmDialog
        isOpen={confirming}
        onOpenChange={setConfirming}
        title={t('priceLists.deleteTitle')}
        message={t('priceLists.deleteConfirm', { name: priceList.title })}
        confirmLabel={t('delete')}
        variant="danger"
        onConfirm={() => {
          void submit({ intent: 'delete' }, { method: 'post' });
          setConfirming(false);
        }}
      />
    </section>
  );
}
