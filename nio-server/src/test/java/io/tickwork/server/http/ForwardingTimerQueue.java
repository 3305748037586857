package io.tickwork.server.http;

import io.tickwork.primitives.timer.TimerQueue;
import java.util.function.Consumer;

/**
 * A loop's timer queue that forwards every call to another: tests override the calls they watch
 * or break. The one-argument {@code expire} goes through the bounded one, so overriding that one
 * covers both.
 */
abstract class ForwardingTimerQueue implements TimerQueue<Object> {
    final TimerQueue<Object> inner;

    ForwardingTimerQueue(TimerQueue<Object> inner) {
        this.inner = inner;
    }

    @Override
    public long schedule(long deadline, Object payload) {
        return inner.schedule(deadline, payload);
    }

    @Override
    public boolean cancel(long handle) {
        return inner.cancel(handle);
    }

    @Override
    public boolean reschedule(long handle, long deadline) {
        return inner.reschedule(handle, deadline);
    }

    @Override
    public int expire(long now, Consumer<? super Object> consumer) {
        return expire(now, consumer, Integer.MAX_VALUE);
    }

    @Override
    public int expire(long now, Consumer<? super Object> consumer, int limit) {
        return inner.expire(now, consumer, limit);
    }

    @Override
    public long nextDeadline() {
        return inner.nextDeadline();
    }

    @Override
    public int size() {
        return inner.size();
    }
}
