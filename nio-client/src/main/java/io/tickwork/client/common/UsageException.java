package io.tickwork.client.common;

/**
 * A bad command line: the message names the option and the bad value; no stack trace is shown.
 * The launcher prints it as {@code error: <message>} and exits with status 2.
 */
public final class UsageException extends RuntimeException {
    public UsageException(String message) {
        super(message, null, false, false);
    }
}
