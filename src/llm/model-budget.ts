import { AsyncLocalStorage } from 'node:async_hooks';
import { ModelBudgetExceededError } from '../kernel/index.js';
import { type Store } from '../store/index.js';
import { usageKeys } from './usage-keys.js';

/**
 * a daily model budget per account (MODEL_DAILY_TOKENS). Usage is metered per account and UTC day in
 * `usageKeys.usage('account', '{accountId}:{yyyy-mm-dd}')` (the metered model writes it with the other scopes), and read
 * here before a call starts: once the day's input and output tokens reach the budget, the call is refused with
 * 429 MODEL_BUDGET_EXCEEDED without reaching the provider. Check-then-spend, not a reservation: a call's size is
 * only known when it ends, so the last call of a day may go past the budget by its own size (and parallel calls
 * started together by theirs); the next one is refused.
 */

/** The UTC day of `now` as yyyy-mm-dd: the budget's period, the same on every node whatever its time zone. */
export function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

/** The usage id of an account on one day (the second part of `usageKeys.usage('account', …)`). */
export function accountUsageId(accountId: string, now: number): string {
  return `${accountId}:${utcDay(now)}`;
}

const billing = new AsyncLocalStorage<string>();

/**
 * Runs `work` with every model call it starts (awaited or spawned inside it) billed to `accountId`, unless a call
 * names its own account. For work that an HTTP request starts (an upload's analysis, a quiz's generation): the
 * services it goes through need not carry the account. A session's lecture names its account explicitly (the
 * session record's `billTo`), because it runs long after any request.
 */
export function runBilledTo<T>(accountId: string | undefined, work: () => T): T {
  return accountId === undefined ? work() : billing.run(accountId, work);
}

/** The account of the surrounding {@link runBilledTo}, if any. */
export function currentBillTo(): string | undefined {
  return billing.getStore();
}

export interface ModelBudgetOptions {
  store: Store;
  /** Tokens per account per UTC day; 0 = unlimited. */
  dailyTokens: number;
  now?: () => number;
}

export class ModelBudget {
  private readonly now: () => number;

  constructor(private readonly options: ModelBudgetOptions) {
    this.now = options.now ?? Date.now;
  }

  get dailyTokens(): number {
    return this.options.dailyTokens;
  }

  /** Tokens the account spent today (UTC). */
  async spentToday(accountId: string): Promise<number> {
    const key = usageKeys.usage('account', accountUsageId(accountId, this.now()));
    const [input, output] = await this.options.store.hmget(key, ['input', 'output']);
    return Number(input ?? 0) + Number(output ?? 0);
  }

  /** Refuses (429 MODEL_BUDGET_EXCEEDED) when the account's budget for today is spent; unlimited when 0. */
  async assertAvailable(accountId: string): Promise<void> {
    const { dailyTokens } = this.options;
    if (dailyTokens <= 0) return;
    if ((await this.spentToday(accountId)) >= dailyTokens) throw new ModelBudgetExceededError(dailyTokens);
  }
}
