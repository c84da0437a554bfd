package io.timelinearchive.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.storage.ForwardingMetaStorage;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.MetaStorages;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TestTableFinder {
  private final StorageLocation base =
      StorageLocation.of("memory://finder-" + UUID.randomUUID() + "/wh");
  private final ExecutorService pool = Executors.newFixedThreadPool(4);

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  /** Records the folders listed; fails the listing of one. */
  private static final class Recording extends ForwardingMetaStorage {
    final Set<StorageLocation> listed = ConcurrentHashMap.newKeySet();
    private final StorageLocation failing;

    Recording(MetaStorage delegate, StorageLocation failing) {
      super(delegate);
      this.failing = failing;
    }

    @Override
    public List<StorageLocation> listFolders(StorageLocation folder) throws IOException {
      listed.add(folder);
      if (folder.equals(failing)) {
        throw new IOException("listing refused: " + folder);
      }
      return super.listFolders(folder);
    }
  }

  private void table(MetaStorage storage, String path) throws IOException {
    StorageLocation t = base.resolve(path);
    storage.createExclusive(t.resolve(".hoodie/hoodie.properties"), new byte[] {1});
    storage.createExclusive(
        t.resolve(".hoodie/metadata/.hoodie/hoodie.properties"), new byte[] {1});
    for (int p = 0; p < 3; p++) {
      storage.createExclusive(t.resolve("dt=" + p + "/part.parquet"), new byte[] {1});
    }
  }

  @Test
  void findsTablesWithoutListingInsideThemOrBelowTheDepth() throws Exception {
    try (MetaStorage memory = MetaStorages.open(base, Map.of())) {
      table(memory, "a");
      table(memory, "x/y/b");
      table(memory, "x/y/z/too-deep");
      table(memory, ".trash/old");
      table(memory, "broken/c");
      memory.createExclusive(base.resolve("data/dt=1/part.parquet"), new byte[] {1});
      Recording storage = new Recording(memory, base.resolve("broken"));

      TableFinder.Found found = TableFinder.find(storage, base, 3, pool);

      assertThat(found.tables()).containsExactly(base.resolve("a"), base.resolve("x/y/b"));
      assertThat(found.unlisted())
          .singleElement()
          .satisfies(
              u -> {
                assertThat(u.folder()).isEqualTo(base.resolve("broken"));
                assertThat(u.failure()).hasMessageContaining("listing refused");
              });
      assertThat(storage.listed)
          .containsExactlyInAnyOrder(
              base,
              base.resolve("a"),
              base.resolve("x"),
              base.resolve("x/y"),
              base.resolve("x/y/b"),
              base.resolve("x/y/z"),
              base.resolve("broken"),
              base.resolve("data"),
              base.resolve("data/dt=1"));
      assertThat(found.listings()).isEqualTo(storage.listed.size());
    }
  }

  @Test
  void depthZeroLooksAtTheBaseAlone() throws Exception {
    try (MetaStorage memory = MetaStorages.open(base, Map.of())) {
      table(memory, "a");
      Recording storage = new Recording(memory, null);

      assertThat(TableFinder.find(storage, base, 0, pool).tables()).isEmpty();
      assertThat(TableFinder.find(storage, base.resolve("a"), 0, pool).tables())
          .containsExactly(base.resolve("a"));
      assertThat(storage.listed).containsExactlyInAnyOrder(base, base.resolve("a"));
    }
  }
}
