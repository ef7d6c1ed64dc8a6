import type { Response } from 'express';
import { runBilledTo, type ModelBudget } from '../llm/index.js';
import { materialIdFromHash, type PdfUpload } from '../materials/index.js';
import type { Quotas, RoomOwner } from '../quota/index.js';
import { optionalAccount } from './principal.js';

/**
 * QUOTA's hooks in the routes, kept here so each route calls one function and the routes' own rewrites (OWN) merge
 * easily. The quotas themselves are in src/quota/.
 */

/**
 * The uploading account, refused before a byte is read when it holds its last material already (429 QUOTA_EXCEEDED)
 * or has spent today's model budget (429 MODEL_BUDGET_EXCEEDED: the upload's analysis is model work it pays for; the
 * analysts would otherwise fall back silently and leave a material planned without them). Anonymous uploads are not
 * counted (whether they are allowed at all is ownership's business).
 */
export async function uploadingAccount(quotas: Quotas, budget: ModelBudget, response: Response): Promise<string | undefined> {
  const account = optionalAccount(response);
  if (account === undefined) return undefined;
  await quotas.assertMaterialSlot(account.accountId);
  await budget.assertAvailable(account.accountId);
  return account.accountId;
}

/** Ingests an upload charged to the account (one material and its bytes) and billed to it (the analyst's model calls). */
export function ingestCharged<T>(quotas: Quotas, accountId: string | undefined, upload: PdfUpload, ingest: () => Promise<T>): Promise<T> {
  const billed = () => runBilledTo(accountId, ingest);
  if (accountId === undefined) return billed();
  return quotas.chargeMaterial(accountId, materialIdFromHash(upload.sha256), upload.bytes.byteLength, billed);
}

/**
 * Who a new room counts against. The seam for ownership: rooms belong to the account owning the quiz once OWN passes
 * it; until then the class is the only owner a room has, so a class holds at most MAX_OPEN_ROOMS_PER_ACCOUNT rooms.
 */
export function roomQuotaOwner(owner: { classId: string; accountId?: string | undefined }): RoomOwner {
  return owner.accountId === undefined ? { scope: 'class', id: owner.classId } : { scope: 'account', id: owner.accountId };
}
