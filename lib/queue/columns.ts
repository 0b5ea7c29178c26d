import { z } from 'zod';
import { jsonColumn } from '../db/json-column';

/**
 * The queue's JSON columns: a unit of work's payload, an object whose shape its kind declares
 * (job-kinds.ts; checked when it is enqueued and again when it runs).
 */
const Payload = z.record(z.string(), z.unknown());

/** OutboxMessage.payloadJson: written in the domain's transaction, read by the relay. */
export const outboxPayloadColumn = jsonColumn('OutboxMessage.payloadJson', Payload);

/** QueueJob.payloadJson: the embedded queue's copy of a relayed payload (db-provider.ts). */
export const queuePayloadColumn = jsonColumn('QueueJob.payloadJson', Payload);
