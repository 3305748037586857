package io.tickwork.scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.jctools.queues.MpscUnboundedArrayQueue;

/**
 * The inbox of one {@link RunLoop} (tasks and timers handed over by other threads) together with
 * the park/unpark handshake that guarantees a loop never sleeps while its inbox holds work.
 *
 * <p><b>Protocol.</b> Producer ({@link #offer}): append (a CAS on the queue's producer index), then
 * read {@link #parked}; if it is 1, CAS it to 0 and, on success, the caller unparks the loop thread.
 * Loop ({@link #announcePark}): write {@code parked = 1}, then re-check that the queue is empty
 * (volatile loads of both indices); only then may it park, and it writes {@code parked = 0}
 * ({@link #parkEnded}) once it is running again. All four accesses are sequentially consistent, so
 * in every interleaving at least one side sees the other: either the loop finds the item, or the
 * producer sees {@code parked == 1} and unparks (an unpark that comes before the park leaves a
 * permit, so the park returns at once). The CAS lets only one of several producers pay for the
 * {@code unpark}. The handshake is checked by the jcstress test {@code InboxParkHandshake}; the
 * store {@code parked = 1} must stay a full volatile store (a release store may pass the
 * emptiness loads on x86 and loses wake-ups, which that test shows).
 *
 * <p><b>Cost:</b> a producer pays the queue CAS plus one volatile load, and a CAS and an
 * {@code unpark} only when the loop is parked or about to park. The loop pays one volatile store
 * and the emptiness check per park.
 *
 * <p><b>Thread safety:</b> {@link #offer} from any thread; {@link #poll}, {@link #announcePark} and
 * {@link #parkEnded} from the loop's thread only; {@link #isEmpty} and {@link #isParked} anywhere.
 */
final class LoopInbox {
    private static final VarHandle PARKED;

    static {
        try {
            PARKED = MethodHandles.lookup().findVarHandle(LoopInbox.class, "parked", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final MpscUnboundedArrayQueue<Object> queue = new MpscUnboundedArrayQueue<>(1024);
    /** 1 while the loop is parked or about to park; a producer that CASes it 1 to 0 unparks. */
    private volatile int parked;

    /**
     * Appends {@code item} (never null); returns true when the caller must unpark the loop thread:
     * the loop had announced a park and this caller is the one producer that claimed the wake-up.
     */
    boolean offer(Object item) {
        queue.offer(item); // linearization point: the CAS on the producer index
        return parked != 0 && PARKED.compareAndSet(this, 1, 0);
    }

    /**
     * Loop thread: announces that it is going to park, then re-checks the queue. Returns true when
     * the loop may park (the queue was still empty after the announcement); any producer that
     * offers later will see the announcement. Call {@link #parkEnded} afterwards either way.
     */
    boolean announcePark() {
        parked = 1; // a full volatile store: it must not pass the loads of isEmpty below
        return queue.isEmpty();
    }

    /** Loop thread: running again (woken, timed out, or decided not to park). */
    void parkEnded() {
        parked = 0;
    }

    /** Loop thread: the oldest item, or null. */
    Object poll() {
        return queue.poll();
    }

    boolean isEmpty() {
        return queue.isEmpty();
    }

    /** The loop announced a park and no producer has claimed the wake-up yet. */
    boolean isParked() {
        return parked != 0;
    }
}
