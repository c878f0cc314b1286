import { hash, verify, type Algorithm } from '@node-rs/argon2';
import type { PasswordHashingConfig } from '../../config.ts';

const ARGON2ID = 2 as Algorithm;

/**
 * Argon2id hashing with a cap on how many hashes run at once: each takes `memoryCost` KiB, so an unbounded
 * burst of logins would take memory in proportion; the rest wait their turn.
 */
export class PasswordHasher {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  /** A hash of nothing anyone knows, verified when the account does not exist, so both answers take as long. */
  private decoy: Promise<string> | null = null;

  constructor(private readonly config: PasswordHashingConfig) {}

  hash(password: string): Promise<string> {
    return this.limited(() =>
      hash(password, {
        algorithm: ARGON2ID,
        memoryCost: this.config.memoryCost,
        timeCost: this.config.timeCost,
        parallelism: this.config.parallelism,
      }),
    );
  }

  /** True when `password` matches `stored`; a missing hash is checked against the decoy and fails. */
  async verify(stored: string | null, password: string): Promise<boolean> {
    const target = stored ?? (await this.decoyHash());
    const matches = await this.limited(() => verify(target, password).catch(() => false));
    return stored !== null && matches;
  }

  private decoyHash(): Promise<string> {
    this.decoy ??= this.hash(`decoy-${Math.random()}`);
    return this.decoy;
  }

  private async limited<T>(work: () => Promise<T>): Promise<T> {
    while (this.running >= this.config.maxConcurrent) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}
