/** The types of scripts/bench-process.mjs, for the bench's TypeScript parts. */
import type { ChildProcess } from 'node:child_process';

export function waitReady(base: string, child: ChildProcess, timeoutMs?: number): Promise<void>;
export function stop(child: ChildProcess): Promise<void>;

/** A sampler of an embedded database's PSS (sampleDatabasePss). */
export type DatabasePssSampler = {
  /** The highest sample so far, in MB. */
  readonly peakMb: number;
  /** The last sample, in MB. */
  readonly nowMb: number;
  /** Starts the peak again from the last sample. */
  reset(): void;
  /** Ends the sampling after one last sample; answers the peak. */
  stop(): Promise<number>;
};
export function postmasterPid(dataDir: string): number | undefined;
export function treePssMb(pid: number): number;
export function databasePssMb(dataDir: string): number;
export function sampleDatabasePss(dataDir: string, everyMs?: number): DatabasePssSampler;
export function sumMb(...figures: (number | undefined)[]): number;
export function peakRssMb(pid: number): number;
export function childrenPeakRssMb(pid: number): number;
