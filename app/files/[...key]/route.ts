import { fileOptions, otherFileMethod, receiveUpload, serveFile } from '@/lib/http/files';

type Ctx = { params: Promise<{ key: string[] }> };

const keyOf = async (ctx: Ctx) => (await ctx.params).key.join('/');

export async function GET(req: Request, ctx: Ctx) {
  return serveFile(req, await keyOf(ctx));
}

export async function HEAD(req: Request, ctx: Ctx) {
  return serveFile(req, await keyOf(ctx), true);
}

export async function PUT(req: Request, ctx: Ctx) {
  return receiveUpload(req, await keyOf(ctx));
}

export function OPTIONS() {
  return fileOptions();
}

export { otherFileMethod as POST, otherFileMethod as PATCH, otherFileMethod as DELETE };
