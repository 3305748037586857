package io.tickwork.server.dict;

import java.io.IOException;

/**
 * A compiled dictionary file that is not whole: truncated, not a dictionary, or with bytes that do
 * not match the CRC-32 its header records. The message is one line that names the file and what is
 * wrong; the server prints it and exits instead of serving damaged data.
 */
public final class DamagedDictionaryException extends IOException {
    DamagedDictionaryException(String message) {
        super(message);
    }
}
