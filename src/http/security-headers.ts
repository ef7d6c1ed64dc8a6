import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { RequestHandler, Response } from 'express';

/**
 * Security headers on every response of the express app (pages, static files, API answers and errors), set by
 * helmet before any route runs. No page is meant to be embedded in another site's frame, so `frame-ancestors` is
 * `'none'` everywhere (and X-Frame-Options DENY for browsers without CSP 3).
 *
 * The CSP allows only this origin's scripts (no inline script or handler: pages load /*.js modules), styles from
 * files (KaTeX sets its layout through the CSSOM, which `style-src` does not restrict; DOMPurify drops `style`
 * attributes), this origin's fonts (Pretendard, KaTeX), images from this origin, `data:` (the favicon
 * placeholder; the join QR code is an SVG from /api/rooms) and `blob:` (a quiz picture the page fetched with the
 * room's token: only this origin's scripts make blob: URLs, and images run nothing), and connections to this origin (fetch and socket.io's
 * websocket). No `upgrade-insecure-requests` and no HSTS: the server also runs on plain http (localhost, a school
 * LAN), and HSTS belongs to whatever terminates TLS in front of it.
 */
export function securityHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        objectSrc: ["'none'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'"],
      },
    },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    strictTransportSecurity: false,
  });
}

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * The same headers on every response of `server`, including those express never sees: socket.io answers
 * `/socket.io/*` (long-polling, its handshake errors, the client bundle) from its own `request` listener, which it
 * put in front of express's. Call after socket.io is attached: this listener goes in front of all of them.
 */
export function securityHeadersOnEveryResponse(server: HttpServer): void {
  const headers = securityHeaders();
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    // helmet only sets and removes headers (it never reads the body or ends the response), and calls next at once.
    const headersSet = (error?: unknown) => {
      if (error !== undefined) {
        response.statusCode = 500;
        response.end();
        return;
      }
      for (const listener of listeners) listener.call(server, request, response);
    };
    (headers as unknown as (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void)(request, response, headersSet);
  });
}

/**
 * Lets these origins frame the response (an LMS showing lectern in its course page): `frame-ancestors` names them
 * instead of `'none'`, and X-Frame-Options, which cannot name an origin, is dropped (browsers with CSP 3 ignore it
 * beside frame-ancestors anyway). Called after helmet, by the middleware that knows the registered platforms.
 */
export function allowFraming(response: Response, origins: readonly string[]): void {
  if (origins.length === 0) return;
  rewriteDirective(response, 'frame-ancestors', () => origins.join(' '));
  response.removeHeader('X-Frame-Options');
}

/** Lets the page's forms post to these origins too (a Deep Linking response goes back to the LMS's return URL). */
export function allowFormTargets(response: Response, origins: readonly string[]): void {
  if (origins.length === 0) return;
  rewriteDirective(response, 'form-action', (current) => [current, ...origins].join(' '));
}

function rewriteDirective(response: Response, name: string, value: (current: string) => string): void {
  const header = response.getHeader('Content-Security-Policy');
  if (typeof header !== 'string') return;
  const directives = header.split(';').map((part) => part.trim());
  const next = directives.map((directive) => (directive.startsWith(`${name} `) ? `${name} ${value(directive.slice(name.length + 1))}` : directive));
  response.setHeader('Content-Security-Policy', next.join(';'));
}
