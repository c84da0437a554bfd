package io.timelinearchive.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.timelinearchive.storage.memory.InMemoryMetaStorageFactory;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;

/** The small shared helpers: UTF-8 order, daemon threads, storage errors, request counts. */
class TestStorageHelpers {
  private static final StorageLocation FILE = StorageLocation.of("memory://v/a b");

  @Test
  void utf8OrderIsTheOrderOfTheUtf8Bytes() {
    String[] alphabet = {"a", "b", "\uE000", "\uFF21", "\uD83D\uDE00", "\uD800\uDC00", "\u00e9"};
    Random random = new Random(1);
    for (int i = 0; i < 10_000; i++) {
      String a = name(random, alphabet);
      String b = name(random, alphabet);
      assertThat(Integer.signum(Utf8Order.compare(a, b)))
          .as("%s vs %s", a, b)
          .isEqualTo(Integer.signum(Arrays.compareUnsigned(a.getBytes(UTF_8), b.getBytes(UTF_8))));
    }
    assertThat(List.of("\uD83D\uDE00", "\uFF21", "a").stream().sorted(Utf8Order.COMPARATOR))
        .containsExactly("a", "\uFF21", "\uD83D\uDE00");
  }

  private static String name(Random random, String[] alphabet) {
    StringBuilder name = new StringBuilder();
    for (int i = random.nextInt(4); i > 0; i--) {
      name.append(alphabet[random.nextInt(alphabet.length)]);
    }
    return name.toString();
  }

  @Test
  void daemonThreadsAreDaemonsNamedAsAsked() {
    Thread one = DaemonThreads.factory("reader").newThread(() -> {});
    ThreadFactory numbered = DaemonThreads.numbered("delete-");
    Thread first = numbered.newThread(() -> {});
    Thread second = numbered.newThread(() -> {});

    assertThat(List.of(one, first, second)).allMatch(Thread::isDaemon);
    assertThat(one.getName()).isEqualTo("reader");
    assertThat(List.of(first.getName(), second.getName())).containsExactly("delete-1", "delete-2");
  }

  @Test
  void storageErrorsNameTheLocationAndKeepTheCause() {
    IOException cause = new IOException("404 from the store");

    assertThat(
            List.<FileSystemException>of(
                StorageErrors.noSuchFile(FILE, cause),
                StorageErrors.alreadyExists(FILE, cause),
                StorageErrors.accessDenied(FILE, null, cause)))
        .allSatisfy(
            e -> {
              assertThat(e.getFile()).isEqualTo("memory://v/a b");
              assertThat(e.getOtherFile()).isNull();
              assertThat(e.getReason()).isNull();
              assertThat(e).hasCause(cause);
            });
    assertThat(StorageErrors.noSuchFile(FILE, "bucket does not exist", cause))
        .hasMessage("memory://v/a b: bucket does not exist");
    assertThat(StorageErrors.alreadyExists(FILE, "the object exists", null).getCause()).isNull();
  }

  @Test
  void serviceRequestsPassThroughDecoratorsWhereTheStoreCountsThem() throws IOException {
    MetaStorage memory =
        new InMemoryMetaStorageFactory().open(StorageLocation.of("memory://helpers"), Map.of());
    Map<String, Long> counts = Map.of("GetObject", 3L);
    MetaStorage counting = new CountedStore(memory, counts);

    assertThat(ServiceRequestCounting.countsOf(memory)).isEmpty();
    assertThat(ServiceRequestCounting.countsOf(counting)).isEqualTo(counts);
    assertThat(new WithoutAppendMetaStorage(counting).serviceRequests()).isEqualTo(counts);
    InMemoryMetaStorageFactory.dropVolume("helpers");
  }

  /** A store that says it counted some requests. */
  private static final class CountedStore extends ForwardingMetaStorage {
    private final Map<String, Long> counts;

    CountedStore(MetaStorage delegate, Map<String, Long> counts) {
      super(delegate);
      this.counts = counts;
    }

    @Override
    public Map<String, Long> serviceRequests() {
      return counts;
    }
  }
}
