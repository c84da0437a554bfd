package io.timelinearchive.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * ArchiveResult can grow without breaking callers: nobody outside the archiver constructs it, nor
 * deconstructs it as a record, and the accessors callers compile against keep their names.
 */
class TestArchiveResultApi {
  @Test
  void onlyTheArchiverCreatesOne() {
    assertThat(ArchiveResult.class.isRecord()).isFalse();
    assertThat(Modifier.isFinal(ArchiveResult.class.getModifiers())).isTrue();
    for (Constructor<?> constructor : ArchiveResult.class.getDeclaredConstructors()) {
      assertThat(Modifier.isPublic(constructor.getModifiers())).as("%s", constructor).isFalse();
    }
  }

  @Test
  void theAccessorsOfTheRecordItWasRemain() {
    assertThat(
            Arrays.stream(ArchiveResult.class.getMethods())
                .filter(m -> m.getDeclaringClass() == ArchiveResult.class)
                .filter(m -> m.getParameterCount() == 0)
                .map(Method::getName))
        .contains(
            "archived",
            "archivedByAction",
            "recovered",
            "archiveFilesWritten",
            "filesDeleted",
            "auxFilesDeleted",
            "barrier",
            "barriers",
            "warnings",
            "requests",
            "serviceRequests",
            "phases",
            "activeBefore",
            "activeAfter",
            "archiveFilesPurged",
            "archiveFilesMerged",
            "mergedArchiveFile",
            "duration");
  }
}
