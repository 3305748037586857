/**
 * Ordered execution benchmarks: tickwork's serial executors beside the peers a user would
 * otherwise pick (Guava's sequential executor, a ConcurrentLinkedQueue or JCTools MPSC mailbox
 * per key, striped single-thread executors), end to end on a shared pool.
 */
package io.tickwork.jmh.order;
