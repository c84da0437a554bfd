package io.timelinearchive.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.storage.StorageLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link TimelineWatcher} calls wrong, on tables laid out by hand on local disk. */
class TestTimelineWatcher {
  private static final String T1 = "20260101000000001";
  private static final String T2 = "20260101000000002";

  @TempDir Path dir;
  private Path meta;
  private Path progress;
  private TimelineWatcher watcher;

  @BeforeEach
  void table() throws Exception {
    Path table = dir.resolve("table");
    meta = Files.createDirectories(table.resolve(".hoodie"));
    progress = dir.resolve("progress.txt");
    StorageLocation location = Tables.location(table);
    watcher = new TimelineWatcher(Store.local(dir), location, progress);
  }

  private void file(String name) throws Exception {
    Files.writeString(meta.resolve(name), "{}");
  }

  @Test
  void aTableAsTheWriterLeftItIsRight() throws Exception {
    for (String t : new String[] {T1, T2}) {
      file(t + ".commit.requested");
      file(t + ".inflight");
      file(t + ".commit");
    }
    Files.writeString(progress, T1 + "\n" + T2 + "\n");
    watcher.look();
    assertThat(watcher.violations()).isEmpty();
    assertThat(watcher.lost()).isEmpty();
  }

  @Test
  void aCompletedCommitInNeitherTimelineIsLost() throws Exception {
    file(T2 + ".commit");
    Files.writeString(progress, T1 + "\n" + T2 + "\n");
    watcher.look();
    assertThat(watcher.violations()).singleElement().asString().contains(T1, "seen nowhere");
    assertThat(watcher.lost()).containsExactly(T1);
  }

  @Test
  void aCompletedCommitWithOnlyItsPendingFilesLooksPending() throws Exception {
    file(T1 + ".commit.requested");
    file(T1 + ".inflight");
    Files.writeString(progress, T1 + "\n");
    watcher.look();
    assertThat(watcher.violations())
        .anyMatch(v -> v.contains("now looks pending: " + T1 + ".inflight"))
        .anyMatch(v -> v.contains("now looks pending: " + T1 + ".commit.requested"));
  }

  @Test
  void aNewerCommitGoneWhileAnOlderIsThereIsAHole() throws Exception {
    file(T1 + ".commit");
    file(T2 + ".commit");
    watcher.look();
    assertThat(watcher.violations()).isEmpty();
    Files.delete(meta.resolve(T2 + ".commit"));
    watcher.look();
    assertThat(watcher.violations())
        .singleElement()
        .asString()
        .contains("hole", T2 + " gone while " + T1 + ".commit is there");
    assertThat(watcher.lost()).containsExactly(T2);
  }
}
