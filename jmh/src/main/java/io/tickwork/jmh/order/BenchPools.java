package io.tickwork.jmh.order;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The pools the ordered-execution benchmarks run on, by the name their {@code pool} parameter
 * takes: {@code threadPool2} ({@code ThreadPoolExecutor(2, 2)} on an unbounded queue),
 * {@code forkJoin2} ({@code new ForkJoinPool(2)}), {@code cached}
 * ({@code Executors.newCachedThreadPool()}) and {@code virtual}
 * ({@code Executors.newVirtualThreadPerTaskExecutor()}, JDK 21 or later; the module compiles with
 * {@code --release 17}, so it is looked up at run time).
 */
final class BenchPools {
    private BenchPools() {}

    static ExecutorService create(String name) {
        return switch (name) {
            case "threadPool2" -> new ThreadPoolExecutor(2, 2, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>());
            case "forkJoin2" -> new ForkJoinPool(2);
            case "cached" -> Executors.newCachedThreadPool();
            case "virtual" -> virtualThreadPerTask();
            default ->
                throw new IllegalArgumentException("pool must be threadPool2, forkJoin2, cached or virtual: " + name);
        };
    }

    /** Whether {@link #create} can make the {@code virtual} pool on this JDK. */
    static boolean virtualThreadsAvailable() {
        try {
            virtualThreadPerTask().shutdown();
            return true;
        } catch (UnsupportedOperationException e) {
            return false;
        }
    }

    private static ExecutorService virtualThreadPerTask() {
        try {
            return (ExecutorService) MethodHandles.publicLookup()
                    .findStatic(
                            Executors.class,
                            "newVirtualThreadPerTaskExecutor",
                            MethodType.methodType(ExecutorService.class))
                    .invoke();
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new UnsupportedOperationException(
                    "virtual threads need JDK 21 or later; this is " + System.getProperty("java.version"));
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
