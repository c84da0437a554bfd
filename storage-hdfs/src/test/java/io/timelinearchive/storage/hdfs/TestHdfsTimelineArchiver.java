package io.timelinearchive.storage.hdfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.timelinearchive.archive.ArchiveListener;
import io.timelinearchive.archive.ArchiveResult;
import io.timelinearchive.archive.InvariantChecker;
import io.timelinearchive.archive.TimelineArchiver;
import io.timelinearchive.archive.read.ArchiveFileSummary;
import io.timelinearchive.archive.read.ArchiveReadOptions;
import io.timelinearchive.archive.read.ArchivedTimeline;
import io.timelinearchive.format.ArchiveFileName;
import io.timelinearchive.sample.SampleTable;
import io.timelinearchive.storage.AppendableLog;
import io.timelinearchive.storage.FileIterator;
import io.timelinearchive.storage.ForwardingAppendableLog;
import io.timelinearchive.storage.ForwardingMetaStorage;
import io.timelinearchive.storage.MetaStorage;
import io.timelinearchive.storage.StorageLocation;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Archival of a Hudi table's timeline on HDFS, end to end, through the ServiceLoader. */
class TestHdfsTimelineArchiver {
  @RegisterExtension static final MiniDfs DFS = new MiniDfs();

  // 30 commits and a clean after every third: about 100 instant files, no barrier.
  private static final SampleTable.Spec TABLE =
      new SampleTable.Spec(30, false, 0, 3, 0, 0, false, LocalDateTime.of(2026, 1, 1, 0, 0), 11);
  private static final String FIRST_FILE = ArchiveFileName.of(1);

  private StorageLocation base;
  private StorageLocation meta;
  private StorageLocation archiveFolder;
  private MetaStorage storage;
  private InvariantChecker invariants;

  @BeforeEach
  void writeTable() throws Exception {
    base = DFS.newRoot("table");
    meta = base.resolve(".hoodie");
    archiveFolder = meta.resolve("archived");
    storage = new HdfsMetaStorageFactory().open(base, DFS.config());
    SampleTable.write(storage, base, TABLE);
    invariants = new InvariantChecker(InvariantChecker.snapshot(storage, meta));
  }

  @AfterEach
  void closeStorage() throws Exception {
    storage.close();
  }

  @Test
  void threeRunsAppendToOneArchiveFileThatReadsBack() throws Exception {
    List<ArchiveResult> runs =
        List.of(archive(keep(24, 20)), archive(keep(16, 12)), archive(keep(8, 4)));

    int archived = 0;
    int blocks = 0;
    for (int run = 0; run < runs.size(); run++) {
      ArchiveResult result = runs.get(run);
      assertThat(result.archived()).as("run %s archived", run + 1).isNotEmpty();
      assertThat(result.archiveFilesWritten())
          .singleElement()
          .satisfies(
              written -> {
                assertThat(written.name()).isEqualTo(FIRST_FILE);
                assertThat(written.blocks()).isPositive();
              });
      archived += result.archived().size();
      blocks += result.archiveFilesWritten().get(0).blocks();
    }
    assertThat(runs)
        .extracting(r -> r.archiveFilesWritten().get(0).appended())
        .containsExactly(false, true, true);

    ArchivedTimeline back = ArchivedTimeline.load(storage, archiveFolder, ArchiveReadOptions.all());
    assertThat(back.files()).hasSize(1);
    ArchiveFileSummary file = back.files().get(0);
    assertThat(file.name()).isEqualTo(FIRST_FILE);
    assertThat(file.blocks()).isEqualTo(blocks);
    assertThat(file.entries()).isEqualTo(archived);
    assertThat(file.truncatedTail()).isFalse();
    assertThat(file.validLength()).isEqualTo(file.length());
    assertThat(back.instants()).hasSize(archived);
    assertThat(invariants.check(storage, meta, archiveFolder)).isEmpty();
  }

  @Test
  void anArchiverKilledBetweenAppendsLeavesALogTheNextRunTakesOver() throws Exception {
    archive(keep(24, 20));
    killWhileAppending(0.0);
    assertThat(invariants.check(storage, meta, archiveFolder)).isEmpty();

    // The dead archiver's client still holds the lease: appending needs lease recovery.
    ArchiveResult next = archiveAfterTheLockExpired(keep(16, 12));

    assertThat(next.recovered()).isNotEmpty();
    assertThat(next.archiveFilesWritten())
        .singleElement()
        .satisfies(
            written -> {
              assertThat(written.name()).isEqualTo(FIRST_FILE);
              assertThat(written.appended()).isTrue();
            });
    ArchivedTimeline back = ArchivedTimeline.load(storage, archiveFolder, ArchiveReadOptions.all());
    assertThat(back.files())
        .singleElement()
        .satisfies(file -> assertThat(file.truncatedTail()).isFalse());
    assertThat(back.files().get(0).entries()).isEqualTo(back.instants().size());
    assertThat(invariants.check(storage, meta, archiveFolder)).isEmpty();
  }

  @Test
  void anArchiverKilledWithinAnAppendLeavesATornBlockTheNextRunWritesPast() throws Exception {
    archive(keep(24, 20));
    killWhileAppending(0.5);
    assertThat(invariants.check(storage, meta, archiveFolder)).isEmpty();

    ArchiveResult next = archiveAfterTheLockExpired(keep(16, 12));

    // Appending after a torn block would bury it mid-file: the run starts the next file.
    assertThat(next.archiveFilesWritten())
        .singleElement()
        .satisfies(written -> assertThat(written.name()).isEqualTo(ArchiveFileName.of(2)));
    ArchivedTimeline back = ArchivedTimeline.load(storage, archiveFolder, ArchiveReadOptions.all());
    assertThat(back.files())
        .extracting(ArchiveFileSummary::name, ArchiveFileSummary::truncatedTail)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(FIRST_FILE, true),
            org.assertj.core.groups.Tuple.tuple(ArchiveFileName.of(2), false));
    assertThat(invariants.check(storage, meta, archiveFolder)).isEmpty();
  }

  private ArchiveResult archive(Map<String, String> config) throws IOException {
    try (TimelineArchiver archiver = TimelineArchiver.open(base.toString(), config)) {
      return archiver.archiveIfRequired();
    }
  }

  /**
   * Runs an archiver on its own HDFS client that dies at its second append, after {@code landed} of
   * that append's bytes reached HDFS, without closing anything.
   */
  private void killWhileAppending(double landed) throws Exception {
    MetaStorage dying = new HdfsMetaStorageFactory().open(base, DFS.config());
    KilledAtAppend killed = new KilledAtAppend(dying, 2, landed);
    Map<String, String> config = keep(16, 12);
    // Several blocks, each appended as soon as it is complete: several appends in the run.
    config.put("hoodie.commits.archival.batch", "4");
    config.put("archive.write.buffer-bytes", "1");
    try (TimelineArchiver archiver =
        TimelineArchiver.create(killed, base, config, Clock.systemUTC(), ArchiveListener.NONE)) {
      assertThatThrownBy(archiver::archiveIfRequired).hasMessageContaining("killed");
    }
    assertThat(killed.dead).as("killed while appending").isTrue();
    deadClients.add(dying);
  }

  private final List<MetaStorage> deadClients = new java.util.ArrayList<>();

  @AfterEach
  void closeDeadClients() {
    for (MetaStorage dead : deadClients) {
      try {
        dead.close();
      } catch (IOException expected) {
        // its files were taken over; it cannot complete them
      }
    }
  }

  private ArchiveResult archiveAfterTheLockExpired(Map<String, String> config) throws Exception {
    // The dead archiver's lock lease (10 minutes by default) has run out for this one.
    Clock later = Clock.offset(Clock.systemUTC(), Duration.ofMinutes(11));
    try (MetaStorage fresh = new HdfsMetaStorageFactory().open(base, DFS.config());
        TimelineArchiver archiver =
            TimelineArchiver.create(fresh, base, config, later, ArchiveListener.NONE)) {
      return archiver.archiveIfRequired();
    }
  }

  private static Map<String, String> keep(int max, int min) {
    Map<String, String> config = new HashMap<>(DFS.config());
    config.put("hoodie.keep.max.commits", Integer.toString(max));
    config.put("hoodie.keep.min.commits", Integer.toString(min));
    config.put("hoodie.cleaner.commits.retained", "2");
    return config;
  }

  /**
   * The storage of a process killed during its {@code dieAt}-th append: part of that append's bytes
   * land, every later call fails, and nothing is closed, so HDFS keeps the dead writer's lease on
   * the file (its client lives on, renewing it, as a stalled process's would).
   */
  private static final class KilledAtAppend extends ForwardingMetaStorage {
    private final int dieAt;
    private final double landed;
    private int appends;
    private volatile boolean dead;

    KilledAtAppend(MetaStorage delegate, int dieAt, double landed) {
      super(delegate);
      this.dieAt = dieAt;
      this.landed = landed;
    }

    @Override
    public FileIterator list(StorageLocation folder) throws IOException {
      alive();
      return delegate.list(folder);
    }

    @Override
    public byte[] read(StorageLocation file) throws IOException {
      alive();
      return delegate.read(file);
    }

    @Override
    public InputStream open(StorageLocation file) throws IOException {
      alive();
      return delegate.open(file);
    }

    @Override
    public void createExclusive(StorageLocation file, byte[] content) throws IOException {
      alive();
      delegate.createExclusive(file, content);
    }

    @Override
    public Optional<AppendableLog> openLog(StorageLocation file) throws IOException {
      alive();
      return delegate.openLog(file).map(Log::new);
    }

    @Override
    public void deleteAll(Collection<StorageLocation> files) throws IOException {
      alive();
      delegate.deleteAll(files);
    }

    @Override
    public void close() {}

    private void alive() throws IOException {
      if (dead) {
        throw new IOException("killed earlier");
      }
    }

    private final class Log extends ForwardingAppendableLog {
      Log(AppendableLog log) {
        super(log);
      }

      @Override
      public void append(byte[] bytes) throws IOException {
        alive();
        if (++appends == dieAt) {
          int n = (int) (bytes.length * landed);
          if (n > 0) {
            delegate.append(Arrays.copyOf(bytes, n));
          }
          dead = true;
          throw new IOException("killed while appending to " + delegate.location());
        }
        delegate.append(bytes);
      }

      @Override
      public void close() throws IOException {
        if (!dead) {
          delegate.close();
        }
      }
    }
  }
}
