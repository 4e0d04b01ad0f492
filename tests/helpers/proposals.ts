import { expect } from 'vitest';
import type { TestApi } from './api';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A priced article in "st" with no purchase price, made through the API; its id. */
export async function createArticle(
  call: TestApi['call'],
  token: string,
  articleId: string,
  title: string,
  price: string,
): Promise<string> {
  const res = (
    await call('POST', '/api/articles', token, { article: { articleId, title, unit: 'st', price, purchasePrice: '0' } })
  ).json<Json>();
  return (res.article ?? res).id as string;
}

/**
 * A new proposal for the customer, saved with these fields and rows as a person would (create, read,
 * put): the saved proposal as the API answers it.
 */
export async function saveNewProposal(
  call: TestApi['call'],
  token: string,
  customerId: string,
  fields: Json & { rows: Json[] },
): Promise<Json> {
  const id = (await call('POST', '/api/proposals', token, { customerId })).json<Json>().id as string;
  const p = (await call('GET', `/api/proposals/${id}`, token)).json<Json>();
  const saved = await call('PUT', '/api/proposals', token, { proposal: { ...p, ...fields } });
  expect(saved.status, saved.text).toBe(200);
  return saved.json<Json>();
}
