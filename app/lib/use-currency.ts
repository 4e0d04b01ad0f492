import { useRouteLoaderData } from 'react-router';
import { printDiscount, type Discount } from '~/core/pricing/discount';

/** The tenant's currency symbol ("kr", "€") from the root loader, as documents print it. */
export function useCurrency(): string {
  const root = useRouteLoaderData('root') as { currency?: string } | undefined;
  return root?.currency ?? 'kr';
}

/** A discount printed the one way every screen and document prints it ("10 %", "50,00 kr/st"). */
export function usePrintDiscount(): (discount: Discount | null | undefined, unit?: string | null) => string {
  const currency = useCurrency();
  return (discount, unit) => printDiscount(discount, { currency, unit });
}
