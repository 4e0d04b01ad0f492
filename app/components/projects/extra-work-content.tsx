import { useTranslation } from 'react-i18next';
import { buttonClass, formatNumber } from '~/app/components/ui';
import { DEFAULT_LANG, isLang } from '~/core/i18n/languages';
import { printDiscount, toNumber } from '~/core/pricing';
import { formatDuration } from '~/core/projects/extra-work.mail';
import type { ExtraWorkView } from '~/core/projects/extra-work-link.service';

/**
 * What a customer is asked to approve as extra work (ATA): the order, its labour and article rows
 * with discounts, the total without VAT and the time so far. The same content on the e-mailed
 * link's page and in the customer zone (decision 063). `idPrefix` keeps heading ids apart when a
 * page shows several orders.
 */
export function ExtraWorkContent({
  view,
  idPrefix = 'extra-work',
}: {
  view: Omit<ExtraWorkView, 'expiresAt'>;
  idPrefix?: string;
}) {
  const { t, i18n } = useTranslation('projects');
  const lang = isLang(i18n.language) ? i18n.language : DEFAULT_LANG;
  const money = (v: string) => `${formatNumber(toNumber(v))} ${view.currency}`;
  return (
    <>
      <section aria-labelledby={`${idPrefix}-order`} className="mt-6">
        <h2 id={`${idPrefix}-order`} className="text-lg font-semibold break-words">
          {t('extraWork.public.order', { number: view.workOrder.number, title: view.workOrder.title })}
        </h2>
        <p className="text-sm text-slate-600">
          {t('extraWork.public.project', { number: view.project.number, title: view.project.title })}
        </p>
        {view.workOrder.description ? (
          <p className="mt-3 text-sm break-words whitespace-pre-line text-slate-800">{view.workOrder.description}</p>
        ) : null}
      </section>

      <section aria-labelledby={`${idPrefix}-articles`} className="mt-6">
        <h2 id={`${idPrefix}-articles`} className="text-base font-semibold">
          {t('extraWork.public.articles')}
        </h2>
        {view.articles.length === 0 && !view.labour ? (
          <p className="mt-1 text-sm text-slate-600">{t('extraWork.public.noArticles')}</p>
        ) : (
          <div
            className="mt-2 overflow-x-auto"
            role="region"
            aria-labelledby={`${idPrefix}-articles`}
            // a phone scrolls the table sideways: the region takes focus so the keyboard can too
            tabIndex={0}
          >
            <table className="w-full text-sm">
              <thead>
                <tr className="border-b border-slate-200 text-left text-slate-600">
                  <th scope="col" className="py-1 pe-2 font-medium">
                    {t('extraWork.public.article')}
                  </th>
                  <th scope="col" className="px-2 py-1 text-right font-medium">
                    {t('extraWork.public.quantity')}
                  </th>
                  <th scope="col" className="px-2 py-1 text-right font-medium">
                    {t('extraWork.public.price')}
                  </th>
                  <th scope="col" className="px-2 py-1 text-right font-medium">
                    {t('extraWork.public.discount')}
                  </th>
                  <th scope="col" className="py-1 ps-2 text-right font-medium">
                    {t('extraWork.public.rowTotal')}
                  </th>
                </tr>
              </thead>
              <tbody>
                {view.labour ? (
                  <tr className="border-b border-slate-100 align-top">
                    <td className="py-1 pe-2 break-words">{t('extraWork.public.labour')}</td>
                    <td className="px-2 py-1 text-right whitespace-nowrap tabular-nums">
                      {formatNumber(toNumber(view.labour.hours))} h
                    </td>
                    <td className="px-2 py-1 text-right whitespace-nowrap tabular-nums">{money(view.labour.price)}</td>
                    <td className="px-2 py-1" />
                    <td className="py-1 ps-2 text-right whitespace-nowrap tabular-nums">{money(view.labour.total)}</td>
                  </tr>
                ) : null}
                {view.articles.map((a, i) => (
                  <tr key={i} className="border-b border-slate-100 align-top">
                    <td className="py-1 pe-2 break-words">
                      {a.title}
                      {a.description ? <div className="text-xs text-slate-600">{a.description}</div> : null}
                    </td>
                    <td className="px-2 py-1 text-right whitespace-nowrap tabular-nums">
                      {formatNumber(toNumber(a.amount), { decimals: a.amount.split('.')[1]?.length ?? 0 })}
                      {a.unit ? ` ${a.unit}` : ''}
                    </td>
                    <td className="px-2 py-1 text-right whitespace-nowrap tabular-nums">{money(a.price)}</td>
                    <td className="px-2 py-1 text-right whitespace-nowrap tabular-nums">
                      {printDiscount(a.discount, { currency: view.currency, unit: a.unit })}
                    </td>
                    <td className="py-1 ps-2 text-right whitespace-nowrap tabular-nums">{money(a.total)}</td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colSpan={4} className="py-1 pe-2 text-right font-medium">
                    {t('extraWork.public.total')}
                  </th>
                  <td className="py-1 ps-2 text-right font-semibold whitespace-nowrap tabular-nums">
                    {money(view.total)}
                  </td>
                </tr>
              </tfoot>
            </table>
          </div>
        )}
        <p className="mt-3 text-sm text-slate-700">
          {t('extraWork.public.time', {
            work: formatDuration(view.time.workMinutes, lang),
            travel: formatDuration(view.time.travelMinutes, lang),
          })}
        </p>
      </section>
    </>
  );
}

/** The two answers to extra work, as submit buttons of the caller's form (`answer`): the link's and the zone's. */
export function ExtraWorkAnswerButtons({
  busy,
  approve,
  decline,
}: {
  busy: boolean;
  approve: string;
  decline: string;
}) {
  return (
    <div className="flex flex-col gap-2 sm:flex-row">
      <button
        type="submit"
        name="answer"
        value="accepted"
        disabled={busy}
        className={buttonClass({ variant: 'primary', size: 'lg' })}
      >
        {approve}
      </button>
      <button
        type="submit"
        name="answer"
        value="declined"
        disabled={busy}
        className={buttonClass({ variant: 'secondary', size: 'lg' })}
      >
        {decline}
      </button>
    </div>
  );
}
