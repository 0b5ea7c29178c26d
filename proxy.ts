import { type NextRequest, NextResponse } from 'next/server';

/**
 * Sends visitors without a session cookie from dashboard pages to the sign-in page, keeping the
 * page they asked for. Only the cookie's presence is checked here (no database at the edge);
 * the dashboard layout validates the session itself.
 */
export function proxy(req: NextRequest) {
  const hasSession =
    req.cookies.has('keyout.session-token') || req.cookies.has('__Secure-keyout.session-token');
  if (hasSession) return NextResponse.next();
  const url = req.nextUrl.clone();
  url.pathname = '/signin';
  url.search = `?next=${encodeURIComponent(req.nextUrl.pathname + req.nextUrl.search)}`;
  return NextResponse.redirect(url);
}

export const config = {
  matcher: ['/jobs/:path*', '/credits/:path*', '/keys/:path*', '/docs/:path*', '/admin/:path*'],
};
