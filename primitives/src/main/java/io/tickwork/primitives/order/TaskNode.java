package io.tickwork.primitives.order;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One accepted task in a key's chain: 24 bytes with compressed oops (header, task, sequence,
 * link). A key's nodes form a singly linked chain from the task running now to the key lane's
 * tail; the thread draining the key follows {@link #successor()}, producers append behind the
 * tail (see {@link KeyLane} for the protocol).
 */
final class TaskNode {
    private static final VarHandle NEXT;

    static {
        try {
            NEXT = MethodHandles.lookup().findVarHandle(TaskNode.class, "next", TaskNode.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The task; cleared when it starts (or is dropped after a rejection), so a finished task is
     * not retained by a node that the lane's tail may still reference.
     */
    Runnable task;

    /**
     * Position in the key's chain: one more than the node appended before it, so the tail's
     * sequence minus the last started one is the number of tasks waiting. A flush marker repeats
     * its predecessor's sequence, so it never counts as waiting. Written before the node is
     * published, never after.
     */
    int seq;

    /** null: nothing linked yet; else the next node of the key. */
    private volatile TaskNode next;

    TaskNode(Runnable task) {
        this.task = task;
    }

    /**
     * Links {@code successor} behind this node with a release store. Only the producer that
     * displaced this node from the lane's tail calls it, so each node has one linker; the
     * drainer's volatile read of {@link #successor()} pairs with the store.
     */
    void linkReleased(TaskNode successor) {
        NEXT.setRelease(this, successor);
    }

    /** The successor if one is linked, else null; a volatile read. */
    TaskNode successor() {
        return next;
    }
}
