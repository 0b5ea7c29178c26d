import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Schemas carry their OpenAPI names and descriptions; openapi.ts turns them into the document.
extendZodWithOpenApi(z);

export { z };
