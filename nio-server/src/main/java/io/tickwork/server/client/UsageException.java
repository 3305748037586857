package io.tickwork.server.client;

/** A bad command line: the message names the option and the bad value; no stack trace is shown. */
final class UsageException extends RuntimeException {
    UsageException(String message) {
        super(message, null, false, false);
    }
}
