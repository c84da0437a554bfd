/**
 * Internal, not public API: the {@code memory://VOLUME/PATH} backend that this project's tests and
 * benchmark run on. Its classes are public only because {@link java.util.ServiceLoader} needs the
 * factory to be; they may change or go in any release, and the scheme is left out of the known
 * schemes that errors name. Volumes last as long as the JVM.
 */
package io.timelinearchive.storage.memory;
