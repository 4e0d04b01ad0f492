/**
 * Pricing: the one place prices, discounts, markups, margins and row totals are computed (spec
 * section 5). Pure — no database, no clock — so work orders, proposals, invoices and the price
 * lookup all compute the same way, and the rules are table-tested.
 *
 * Numbers: money never goes through JavaScript floating point. Values are exact decimals
 * (`decimal.ts`: a bigint of units at a scale), computed exactly and rounded once, half away from
 * zero, to 2 decimals (öre/cents). Money travels as canonical decimal text ("1250.00") — the
 * database's numeric columns are read as text, the API answers text — and the UI formats it for
 * people with `formatNumber`. Percentages are decimal text with 2 decimals, quantities with 3.
 */
export * from './decimal';
export * from './discount';
export * from './rows';
export * from './price-lookup';
export * from './schemas';
