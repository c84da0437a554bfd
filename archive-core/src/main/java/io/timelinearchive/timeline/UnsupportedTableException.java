package io.timelinearchive.timeline;

import java.io.IOException;

/**
 * A table of a Hudi version or layout this archiver does not handle (Hudi 1.x, a future version):
 * refused before anything is read beyond {@code hoodie.properties}, never guessed at. Bad input,
 * not a bug.
 */
public final class UnsupportedTableException extends IOException {
  private static final long serialVersionUID = 1L;

  public UnsupportedTableException(String message) {
    super(message);
  }
}
