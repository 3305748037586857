package io.tickwork.primitives.order;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/** The variant set under test: every way this package offers serial execution, behind one shape. */
enum Variant {
    SINGLE_PRODUCER(false) {
        @Override
        Target create(Executor pool, int budget, Thread.UncaughtExceptionHandler handler) {
            return perKey(() -> new SingleProducerSerialExecutor(pool, budget, handler));
        }
    },
    MULTI_PRODUCER(true) {
        @Override
        Target create(Executor pool, int budget, Thread.UncaughtExceptionHandler handler) {
            return perKey(() -> new MultiProducerSerialExecutor(pool, budget, handler));
        }
    },
    GROUP(true) {
        @Override
        Target create(Executor pool, int budget, Thread.UncaughtExceptionHandler handler) {
            SerialExecutorGroup group = new SerialExecutorGroup(pool, budget, handler, 2);
            return perKey(group::newSerialExecutor);
        }
    },
    KEYED(true) {
        @Override
        Target create(Executor pool, int budget, Thread.UncaughtExceptionHandler handler) {
            KeyedSerialExecutor<Integer> keyed = new KeyedSerialExecutor<>(pool, budget, handler);
            return new Target() {
                @Override
                public void execute(int key, Runnable task) {
                    keyed.execute(key, task);
                }

                @Override
                public int liveKeys() {
                    return keyed.activeKeys();
                }
            };
        }
    };

    /** Whether concurrent producers are part of the variant's contract. */
    final boolean multiProducer;

    Variant(boolean multiProducer) {
        this.multiProducer = multiProducer;
    }

    abstract Target create(Executor pool, int budget, Thread.UncaughtExceptionHandler handler);

    Target create(Executor pool) {
        return create(pool, DrainPolicy.DEFAULT_BUDGET, null);
    }

    /** Keyed submission; for the unkeyed variants, one executor per key. */
    interface Target {
        void execute(int key, Runnable task);

        /** Keys whose state the executor still holds; -1 if the variant keeps every key. */
        default int liveKeys() {
            return -1;
        }
    }

    private static Target perKey(java.util.function.Supplier<SerialExecutor> factory) {
        ConcurrentHashMap<Integer, SerialExecutor> executors = new ConcurrentHashMap<>();
        return (key, task) -> executors.computeIfAbsent(key, k -> factory.get()).execute(task);
    }
}
