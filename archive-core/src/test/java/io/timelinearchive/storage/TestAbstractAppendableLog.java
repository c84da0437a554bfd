package io.timelinearchive.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class TestAbstractAppendableLog {
  private static final StorageLocation FILE = StorageLocation.of("memory://v/log");

  /** Appends to a buffer; fails the appends it is told to, after writing half of the bytes. */
  private static final class BufferLog extends AbstractAppendableLog {
    final ByteArrayOutputStream file = new ByteArrayOutputStream();
    boolean failNext;
    int limit = Integer.MAX_VALUE;

    BufferLog(byte[] existing) {
      super(FILE, existing.length);
      file.writeBytes(existing);
    }

    @Override
    protected void checkAppendable(byte[] bytes) throws IOException {
      if (file.size() + bytes.length > limit) {
        throw new IOException("over the limit");
      }
    }

    @Override
    protected void appendAt(long position, byte[] bytes) throws IOException {
      assertThat(position).isEqualTo(file.size());
      if (failNext) {
        file.write(bytes, 0, bytes.length / 2);
        throw new IOException("torn");
      }
      file.writeBytes(bytes);
    }

    @Override
    public void close() {}
  }

  @Test
  void countsTheBytesFromTheLengthItWasOpenedAt() throws Exception {
    BufferLog log = new BufferLog(new byte[] {1, 2, 3});

    log.append(new byte[] {4, 5});
    log.append(new byte[0]);

    assertThat(log.location()).isEqualTo(FILE);
    assertThat(log.length()).isEqualTo(5);
    assertThat(log.file.toByteArray()).containsExactly(1, 2, 3, 4, 5);
    assertThat(log).hasToString("BufferLog[memory://v/log, length=5]");
  }

  @Test
  void afterAFailedAppendEveryAppendIsRefused() throws Exception {
    BufferLog log = new BufferLog(new byte[0]);
    log.append(new byte[] {1});
    log.failNext = true;

    assertThatThrownBy(() -> log.append(new byte[] {2, 3})).hasMessage("torn");
    log.failNext = false;

    assertThatThrownBy(() -> log.append(new byte[] {4}))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("an earlier append to " + FILE + " failed")
        .hasMessageContaining("reopen the log");
    assertThat(log.length()).isEqualTo(1);
    assertThat(log.file.toByteArray()).containsExactly(1, 2);
  }

  @Test
  void aRefusalBeforeWritingLeavesTheLogUsable() throws Exception {
    BufferLog log = new BufferLog(new byte[0]);
    log.limit = 2;

    assertThatThrownBy(() -> log.append(new byte[] {1, 2, 3})).hasMessage("over the limit");
    log.append(new byte[] {1, 2});

    assertThat(log.length()).isEqualTo(2);
  }

  @Test
  void rejectsNullBytesAndANegativeLength() {
    BufferLog log = new BufferLog(new byte[0]);

    assertThatThrownBy(() -> log.append(null))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("bytes is null");
    assertThatThrownBy(
            () ->
                new AbstractAppendableLog(FILE, -1) {
                  @Override
                  protected void appendAt(long position, byte[] bytes) {}

                  @Override
                  public void close() {}
                })
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("negative length -1");
  }
}
