import { db, type Db } from '../db/client';
import type { ServedRuntime } from '../inference/runtime-rpc';
import { serverRuntime } from '../inference/server-runtime';
import { storage, type Storage } from '../storage';

/**
 * What a use case works with, handed to it rather than reached for, so a test tier passes its
 * stand-ins in (tests/service gives the worker its stand-in models this way).
 */
export interface Ports {
  db: Db;
  storage: Storage;
  /** The models, loaded on first use: the web process never asks, so it never loads onnxruntime. */
  runtime: () => Promise<ServedRuntime>;
}

/**
 * The process's own adapters, each made on first use (the configuration is read then), so this
 * is built once at import and stays valid when a test points the environment elsewhere.
 */
export const defaultPorts: Ports = {
  get db() {
    return db();
  },
  get storage() {
    return storage();
  },
  runtime: serverRuntime,
};

/** A worker's unit of work: its ports, and the signal that stops it. */
export interface WorkContext {
  ports: Ports;
  /** Aborted on timeout, shutdown and a lost lease. */
  signal: AbortSignal;
  /** The worker's log (operators read which engine settings a job ran with here). */
  log: (line: string) => void;
}
