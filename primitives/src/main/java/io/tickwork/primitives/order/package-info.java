/**
 * Ordered execution over any {@link java.util.concurrent.Executor}: tasks of one key run one at a
 * time, in submission order, on a shared pool, without a thread per key.
 *
 * <p>Everything here is built on one protocol, {@link io.tickwork.primitives.order.LinkingRunnable}
 * (Jeff Hain's linking runnable, as used by http-kit): a chain of task nodes linked by CAS, closed
 * by a self-link tombstone, drained iteratively by whichever pool thread owns its head. On top:
 * {@link io.tickwork.primitives.order.SingleProducerSerialExecutor} (one producer thread, the seed's
 * use), {@link io.tickwork.primitives.order.MultiProducerSerialExecutor} (any producers; an atomic
 * tail) and {@link io.tickwork.primitives.order.KeyedSerialExecutor} (one lane per active key,
 * idle keys retired, lanes multiplexed onto a few resident pool workers). All share the guarantees
 * listed on {@link io.tickwork.primitives.order.SerialExecutor}. No runtime dependencies.
 */
package io.tickwork.primitives.order;
