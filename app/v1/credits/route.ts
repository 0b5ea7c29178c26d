import { apiRoute, otherMethods } from '@/lib/http/route';
import { CreditBalance } from '@/lib/schemas/credits';
import { getCredits } from '@/lib/services/credits/get-credits';
import { defaultPorts } from '@/lib/services/ports';

export const GET = apiRoute(async ({ userId }) => ({
  body: CreditBalance.parse(await getCredits(defaultPorts, userId)),
}));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods('GET');
