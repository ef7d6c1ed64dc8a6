import type { Response } from 'express';
import { ERROR_MESSAGES } from '../protocol/wire/error-messages.js';
import type { ErrorCode } from '../protocol/wire/error-codes.js';

/**
 * The two HTML answers of the LMS-facing routes, which a browser shows inside the LMS's frame: the landing page of a
 * launch (its data in a JSON block that no browser executes; /build/lti-landing.js reads it and goes on) and the
 * error page (the reason in Korean and its code, no script at all). Both are no-store: a launch is one-use.
 */

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character] ?? character);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="ko">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} — lectern</title>
  <link rel="icon" href="/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/app.css">
</head>
<body>
  <header class="top"><span class="logo">lectern</span></header>
  <main>
${body}
  </main>
</body>
</html>
`;
}

/** The landing page: `landing` goes to the page's script as JSON (`<` escaped so no `</script>` can end the block). */
export function sendLanding(response: Response, landing: object): void {
  const json = JSON.stringify(landing).replace(/</g, '\\u003c');
  response
    .status(200)
    .set('Cache-Control', 'no-store')
    .type('html')
    .send(
      page(
        'LMS에서 들어가는 중',
        `    <section class="card" data-testid="lti-landing">
      <p id="lti-status" role="status">lectern으로 들어가는 중…</p>
    </section>
    <script type="application/json" id="lti-landing">${json}</script>
    <script src="/build/lti-landing.js" type="module"></script>`,
      ),
    );
}

/** The error page of a refused launch, login or registration: what went wrong in Korean, and its code for support. */
export function sendLtiError(response: Response, status: number, code: ErrorCode, message: string | undefined): void {
  const text = message ?? ERROR_MESSAGES[code];
  response
    .status(status)
    .set('Cache-Control', 'no-store')
    .type('html')
    .send(
      page(
        'LMS 연결 오류',
        `    <section class="card" data-testid="lti-error">
      <h1>lectern을 열 수 없습니다</h1>
      <p class="error" role="alert">${escapeHtml(text)}</p>
      <p class="muted">오류 코드: <code data-testid="lti-error-code">${escapeHtml(code)}</code></p>
    </section>`,
      ),
    );
}
