package io.timelinearchive.hudicompat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import org.apache.hudi.common.model.HoodieTableType;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two tables every test starts from, written once per test JVM by Hudi's own write client (8 to
 * 25 s together, with the machine's load) and copied for each test, modification times included,
 * since they become the entries' state transition times.
 *
 * <p>Copy-on-write: 7 commits each followed by a failed write that is rolled back (so 7 rollbacks),
 * then 6 more commits with a savepoint on the third of them; cleaning after every commit.
 * Merge-on-read: 13 delta commits with inline compaction every 3, cleaning, and a savepoint near
 * the end.
 */
final class HudiFixtures implements BeforeAllCallback {
  private static final Logger LOG = LoggerFactory.getLogger(HudiFixtures.class);
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(HudiFixtures.class);

  private Tables tables;

  @Override
  public void beforeAll(ExtensionContext context) {
    tables =
        context
            .getRoot()
            .getStore(NAMESPACE)
            .getOrComputeIfAbsent(Tables.class, key -> Tables.write(), Tables.class);
  }

  /** A copy of the table of {@code type} at {@code target} (which must not exist yet). */
  Path copy(HoodieTableType type, Path target) throws IOException {
    copyTree(tables.of(type).dir(), target);
    return target;
  }

  /** What the fixture wrote into the table of {@code type}. */
  Written written(HoodieTableType type) {
    return tables.of(type);
  }

  /**
   * @param commits completed commit and delta commit times written by the client, in order
   * @param savepoint the savepointed commit
   */
  record Written(Path dir, List<String> commits, String savepoint) {}

  static void copyTree(Path source, Path target) throws IOException {
    Files.walkFileTree(
        source,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
              throws IOException {
            Files.createDirectories(target.resolve(source.relativize(dir)));
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.copy(
                file, target.resolve(source.relativize(file)), StandardCopyOption.COPY_ATTRIBUTES);
            return FileVisitResult.CONTINUE;
          }
        });
  }

  private record Tables(Written cow, Written mor) {
    Written of(HoodieTableType type) {
      return type == HoodieTableType.COPY_ON_WRITE ? cow : mor;
    }

    static Tables write() {
      long start = System.nanoTime();
      try {
        Path root =
            Files.createTempDirectory(
                Files.createDirectories(Path.of("target", "hudi-tables")).toAbsolutePath(),
                "fixtures-");
        Tables tables = new Tables(writeCopyOnWrite(root.resolve("cow")), writeMergeOnRead(root));
        LOG.info("Hudi wrote the fixture tables in {} ms", (System.nanoTime() - start) / 1_000_000);
        return tables;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    private static Written writeCopyOnWrite(Path dir) throws IOException {
      List<String> commits = new ArrayList<>();
      String savepoint = null;
      try (HudiTable table =
          HudiTable.create(dir, HoodieTableType.COPY_ON_WRITE, HudiTable.archivalSettings())) {
        for (int i = 0; i < 7; i++) {
          commits.add(table.commit());
          String failed = table.failedWrite();
          table.closeClient();
          table.rollback(failed);
        }
        for (int i = 0; i < 6; i++) {
          commits.add(table.commit());
          // at once: Hudi refuses to savepoint a commit the cleaner may have passed
          if (i == 2) {
            savepoint = commits.get(commits.size() - 1);
            table.savepoint(savepoint);
          }
        }
      }
      return new Written(dir, commits, savepoint);
    }

    private static Written writeMergeOnRead(Path root) throws IOException {
      Path dir = root.resolve("mor");
      List<String> commits = new ArrayList<>();
      String savepoint = null;
      try (HudiTable table =
          HudiTable.create(dir, HoodieTableType.MERGE_ON_READ, HudiTable.archivalSettings())) {
        for (int i = 0; i < 13; i++) {
          commits.add(table.commit());
          if (i == 9) {
            savepoint = commits.get(i);
            table.savepoint(savepoint);
          }
        }
      }
      return new Written(dir, commits, savepoint);
    }
  }
}
