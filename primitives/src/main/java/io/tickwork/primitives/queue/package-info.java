/**
 * Single-threaded containers the timer wheels are built from: a bounded ring queue and an
 * unbounded FIFO of recycled array chunks, both {@code LongQueue}s. Not thread safe; no locks, no
 * volatile accesses.
 */
package io.tickwork.primitives.queue;
