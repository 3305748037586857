package io.tickwork.primitives.order;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Where {@link TaskFailures#report} sends each throwable, with and without a handler, when the
 * handler throws, and when the thread's uncaught-exception handler throws after it: nothing but a
 * {@link VirtualMachineError} comes back to the caller, and only when one was thrown.
 */
class TaskFailuresTest {
    private static final Runnable TASK = () -> {};

    /** Runs {@code report} on a fresh thread whose uncaught-exception handler is {@code ueh}. */
    private static VirtualMachineError reportOnThread(
            TaskFailures failures, Throwable failure, Thread.UncaughtExceptionHandler ueh) throws Exception {
        AtomicReference<VirtualMachineError> returned = new AtomicReference<>();
        AtomicReference<Throwable> escaped = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                returned.set(failures.report("k", TASK, failure));
            } catch (Throwable e) {
                escaped.set(e);
            }
        });
        t.setUncaughtExceptionHandler(ueh);
        t.start();
        t.join();
        assertNull(escaped.get(), "report threw instead of returning");
        return returned.get();
    }

    @Test
    void aTasksVirtualMachineErrorComesBackWithoutReachingTheHandler() throws Exception {
        List<Throwable> handled = new ArrayList<>();
        TaskFailures failures = new TaskFailures((Object key, Runnable task, Throwable e) -> handled.add(e));
        StackOverflowError fatal = new StackOverflowError("simulated");
        assertSame(fatal, reportOnThread(failures, fatal, (t, e) -> handled.add(e)));
        assertEquals(List.of(), handled);
    }

    @Test
    void withoutAHandlerTheFailureGoesToTheThreadsHandler() throws Exception {
        List<Throwable> uncaught = new ArrayList<>();
        IllegalStateException failure = new IllegalStateException("task");
        assertNull(reportOnThread(new TaskFailures(null), failure, (t, e) -> uncaught.add(e)));
        assertEquals(List.of(failure), uncaught);
    }

    /** Without a handler the thread's handler is the only one: asked once, not again about its own throw. */
    @Test
    void withoutAHandlerAThrowingThreadHandlerIsAskedOnce() throws Exception {
        List<Throwable> uncaught = new ArrayList<>();
        IllegalStateException failure = new IllegalStateException("task");
        assertNull(reportOnThread(new TaskFailures(null), failure, (t, e) -> {
            uncaught.add(e);
            throw new IllegalArgumentException("the thread's handler fails");
        }));
        assertEquals(List.of(failure), uncaught);
    }

    @Test
    void aHandlersVirtualMachineErrorComesBack() throws Exception {
        OutOfMemoryError fatal = new OutOfMemoryError("simulated");
        TaskFailures failures = new TaskFailures((Object key, Runnable task, Throwable e) -> {
            throw fatal;
        });
        List<Throwable> uncaught = new ArrayList<>();
        assertSame(fatal, reportOnThread(failures, new IllegalStateException("task"), (t, e) -> uncaught.add(e)));
        assertEquals(List.of(), uncaught);
    }

    @Test
    void aHandlerRethrowingTheTasksFailureSendsItToTheThreadUnchanged() throws Exception {
        TaskFailures failures = new TaskFailures((Object key, Runnable task, Throwable e) -> {
            throw (RuntimeException) e;
        });
        List<Throwable> uncaught = new ArrayList<>();
        IllegalStateException failure = new IllegalStateException("task");
        assertNull(reportOnThread(failures, failure, (t, e) -> uncaught.add(e)));
        assertEquals(List.of(failure), uncaught);
        assertArrayEquals(new Throwable[0], failure.getSuppressed(), "suppressed itself");
    }

    @Test
    void aVirtualMachineErrorFromTheThreadsHandlerAfterAThrowingHandlerComesBack() throws Exception {
        IllegalStateException handlerFailure = new IllegalStateException("handler");
        TaskFailures failures = new TaskFailures((Object key, Runnable task, Throwable e) -> {
            throw handlerFailure;
        });
        OutOfMemoryError fatal = new OutOfMemoryError("simulated");
        IllegalStateException failure = new IllegalStateException("task");
        assertSame(fatal, reportOnThread(failures, failure, (t, e) -> {
            throw fatal;
        }));
        assertArrayEquals(new Throwable[] {failure}, handlerFailure.getSuppressed());
    }

    @Test
    void whenTheThreadsHandlerThrowsTooNothingComesBack() throws Exception {
        TaskFailures failures = new TaskFailures((Object key, Runnable task, Throwable e) -> {
            throw new IllegalStateException("handler");
        });
        assertNull(reportOnThread(failures, new IllegalStateException("task"), (t, e) -> {
            throw new IllegalArgumentException("uncaught-exception handler");
        }));
    }
}
