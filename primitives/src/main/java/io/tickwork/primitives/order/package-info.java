/**
 * Ordered execution over any {@link java.util.concurrent.Executor}: tasks of one key run one at a
 * time, in submission order, on a shared pool, without a thread per key.
 */
package io.tickwork.primitives.order;
