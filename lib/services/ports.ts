import { db, type Db } from '../db/client';
import type { ServedRuntime } from '../inference/runtime-rpc';
import { queueProvider, type QueueProvider } from '../queue';
import { storage, type Storage } from '../storage';

/** The time a use case decides by (expiry, a token's validity), so a test can fix it. */
export interface Clock {
  now: () => Date;
}

/**
 * What a use case works with, handed to it rather than reached for, so a test tier passes its
 * stand-ins in (tests/in-process gives the worker its stand-in models this way). The API's and the
 * dashboard's use cases take it as their first parameter, the worker's inside their WorkContext.
 */
export interface Ports {
  db: Db;
  storage: Storage;
  queue: QueueProvider;
  /** The models, loaded on first use: the web process never asks, so it never loads onnxruntime. */
  runtime: () => Promise<ServedRuntime>;
  clock: Clock;
}

/**
 * The process's own adapters, each made on first use (the configuration is read then), so this
 * is built once at import and stays valid when a test points the environment elsewhere. No
 * models: the web process imports this, and must not bundle or load onnxruntime-node (its
 * inference thread is a tsx entry); a worker adds them with `withRuntime`.
 */
export const defaultPorts: Ports = {
  get db() {
    return db();
  },
  get storage() {
    return storage();
  },
  get queue() {
    return queueProvider();
  },
  runtime: () => Promise.reject(new Error('This process runs no models (see withRuntime)')),
  clock: { now: () => new Date() },
};

/** `ports` with these models; its other adapters are still made on first use. */
export function withRuntime(ports: Ports, runtime: Ports['runtime']): Ports {
  return Object.create(ports, { runtime: { value: runtime, enumerable: true } }) as Ports;
}

/** A worker's unit of work: its ports, and the signal that stops it. */
export interface WorkContext {
  ports: Ports;
  /** Aborted on timeout, shutdown and a lost lease. */
  signal: AbortSignal;
  /** The worker's log (operators read which engine settings a job ran with here). */
  log: (line: string) => void;
}
