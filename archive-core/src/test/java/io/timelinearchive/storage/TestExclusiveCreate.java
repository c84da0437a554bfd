package io.timelinearchive.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.archive.TestTables;
import io.timelinearchive.storage.memory.InMemoryMetaStorageFactory;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TestExclusiveCreate {
  private final StorageLocation base = TestTables.newMemoryTable();
  private final MetaStorage memory = TestTables.memory(base);
  private final StorageLocation file = base.resolve("f");

  @AfterEach
  void dropVolume() {
    InMemoryMetaStorageFactory.dropVolume(base.authority());
  }

  @Test
  void aCreateThatDidNotLandReportsTheStoresFailureNotTheAbsence() {
    MetaStorage failing = new UnknownOutcome(memory, false);
    assertThatThrownBy(() -> ExclusiveCreate.create(failing, file, "x".getBytes(UTF_8)))
        .isInstanceOf(OutcomeUnknownException.class)
        .hasMessageContaining("HTTP 500");
  }

  @Test
  void aCreateThatLandedDespiteTheFailureIsOurs() throws Exception {
    MetaStorage landing = new UnknownOutcome(memory, true);
    ExclusiveCreate.create(landing, file, "x".getBytes(UTF_8));
    assertThat(memory.read(file)).isEqualTo("x".getBytes(UTF_8));
  }

  @Test
  void someoneElsesFileIsReportedAsExisting() throws Exception {
    memory.createExclusive(file, "theirs".getBytes(UTF_8));
    MetaStorage failing = new UnknownOutcome(memory, false);
    assertThatThrownBy(() -> ExclusiveCreate.create(failing, file, "ours".getBytes(UTF_8)))
        .isInstanceOf(FileAlreadyExistsException.class);
  }

  /** A store whose creates fail with an unknown outcome, after landing or not. */
  private static final class UnknownOutcome extends ForwardingMetaStorage {
    private final boolean land;

    UnknownOutcome(MetaStorage delegate, boolean land) {
      super(delegate);
      this.land = land;
    }

    @Override
    public void createExclusive(StorageLocation f, byte[] content) throws IOException {
      if (land) {
        delegate.createExclusive(f, content);
      }
      throw new OutcomeUnknownException(
          "create " + f + ": HTTP 500 InternalError after retries", null);
    }

    @Override
    public void close() {}
  }
}
