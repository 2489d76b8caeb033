/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.distlock.boot3;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Stream;

import io.distlock.LockTemplate;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.asm.ClassReader;
import org.springframework.asm.ClassVisitor;
import org.springframework.asm.FieldVisitor;
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.Opcodes;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests that lock-core, compiled once against Spring Framework 7, Spring Data Redis 4 and
 * Lettuce 7, calls no class, method, constructor or field of Spring or Lettuce that the
 * Spring Boot 3.5 generation (Spring Framework 6.2, Spring Data Redis 3.5, Lettuce 6)
 * lacks: every such reference in its class files must link on this class path. The
 * Spring Integration 7 adapter ({@code io.distlock.integration}) alone is not checked:
 * it is for Spring Boot 4.
 */
class LockCoreLinkageTests {

	private static final List<String> CHECKED = List.of("org/springframework/", "io/lettuce/");

	private static final Map<String, Members> MEMBERS = new ConcurrentHashMap<>();

	@Test
	void lockCoreReferencesOnlySpringAndLettuceMembersThatBoot35Has() throws Exception {
		Set<String> missing = new TreeSet<>();
		List<byte[]> classFiles = lockCoreClassFiles();
		assertThat(classFiles).hasSizeGreaterThan(100);
		for (byte[] classFile : classFiles) {
			new ClassReader(classFile).accept(new ReferenceCollector(missing), ClassReader.SKIP_FRAMES);
		}
		assertThat(missing).isEmpty();
	}

	@Test
	void referenceToWhatOnlySpringFramework7HasIsMissingHere() {
		Set<String> missing = new TreeSet<>();
		ReferenceCollector collector = new ReferenceCollector(missing);
		// Spring Framework 7's retry support, and an Assert method that no version has.
		collector.checkClass("org/springframework/core/retry/RetryTemplate");
		collector.checkMethod("org/springframework/util/Assert", "notNull", "(Ljava/lang/Object;)V");
		collector.checkMethod("org/springframework/util/Assert", "notNull", "(Ljava/lang/Object;Ljava/lang/String;)V");
		assertThat(missing).containsExactly("class org/springframework/core/retry/RetryTemplate",
				"org/springframework/util/Assert.notNull(Ljava/lang/Object;)V");
	}

	private static List<byte[]> lockCoreClassFiles() throws IOException, URISyntaxException {
		Path location = Path.of(LockTemplate.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		// lock-core's jar when the reactor has packaged it, else its target/classes.
		if (Files.isDirectory(location)) {
			return readClassFiles(location);
		}
		try (FileSystem jar = FileSystems.newFileSystem(location)) {
			return readClassFiles(jar.getPath("/"));
		}
	}

	private static List<byte[]> readClassFiles(Path root) throws IOException {
		try (Stream<Path> files = Files.walk(root)) {
			List<byte[]> classFiles = new ArrayList<>();
			for (Path file : (Iterable<Path>) files::iterator) {
				if (file.toString().endsWith(".class") && !isForSpringIntegration7(root.relativize(file))) {
					classFiles.add(Files.readAllBytes(file));
				}
			}
			return classFiles;
		}
	}

	// DistlockLockRegistry implements Spring Integration 7's DistributedLock API, which
	// Spring Boot 3.5 does not have: its auto-configuration is left out there.
	private static boolean isForSpringIntegration7(Path classFile) {
		return classFile.toString().replace('\\', '/').startsWith("io/distlock/integration/");
	}

	private static boolean isChecked(String owner) {
		return CHECKED.stream().anyMatch(owner::startsWith);
	}

	/**
	 * Return the members of the given class as declared in its class file on this class
	 * path, or {@code null} if there is none. Read from the class file rather than by
	 * reflection, which fails on a class whose other members need an absent optional
	 * dependency (Kotlin for Spring's {@code CoroutinesUtils}).
	 */
	private static @Nullable Members members(String internalName) {
		return MEMBERS.computeIfAbsent(internalName, (name) -> {
			try (InputStream in = LockCoreLinkageTests.class.getClassLoader().getResourceAsStream(name + ".class")) {
				if (in == null) {
					return Members.ABSENT;
				}
				Members members = new Members();
				new ClassReader(in).accept(members, ClassReader.SKIP_CODE);
				return members;
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}).presentOrNull();
	}

	/**
	 * The supertypes, methods and fields of one class file.
	 */
	private static final class Members extends ClassVisitor {

		static final Members ABSENT = new Members();

		final List<String> supertypes = new ArrayList<>();

		final Set<String> methods = new HashSet<>();

		final Set<String> fields = new HashSet<>();

		Members() {
			super(Opcodes.ASM9);
		}

		@Nullable Members presentOrNull() {
			return (this != ABSENT) ? this : null;
		}

		@Override
		public void visit(int version, int access, String name, String signature, String superName,
				String[] interfaces) {
			if (superName != null) {
				this.supertypes.add(superName);
			}
			this.supertypes.addAll(List.of(interfaces));
		}

		@Override
		public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
				String[] exceptions) {
			this.methods.add(name + descriptor);
			return null;
		}

		@Override
		public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
			this.fields.add(name);
			return null;
		}

		boolean hasMethod(String nameAndDescriptor) {
			return this.methods.contains(nameAndDescriptor) || (!nameAndDescriptor.startsWith("<init>")
					&& inherited((members) -> members.hasMethod(nameAndDescriptor)));
		}

		boolean hasField(String name) {
			return this.fields.contains(name) || inherited((members) -> members.hasField(name));
		}

		// Interfaces name no superclass; their calls of Object's methods link to Object.
		private boolean inherited(Predicate<Members> has) {
			List<String> candidates = this.supertypes.contains("java/lang/Object") ? this.supertypes
					: Stream.concat(this.supertypes.stream(), Stream.of("java/lang/Object")).toList();
			return candidates.stream()
				.map(LockCoreLinkageTests::members)
				.anyMatch((members) -> members != null && members != this && has.test(members));
		}

	}

	/**
	 * Collects the references of one class file that do not link here.
	 */
	private static final class ReferenceCollector extends ClassVisitor {

		private final Set<String> missing;

		ReferenceCollector(Set<String> missing) {
			super(Opcodes.ASM9);
			this.missing = missing;
		}

		@Override
		public void visit(int version, int access, String name, String signature, String superName,
				String[] interfaces) {
			checkClass(superName);
			for (String anInterface : interfaces) {
				checkClass(anInterface);
			}
		}

		@Override
		public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
				String[] exceptions) {
			return new MethodVisitor(Opcodes.ASM9) {

				@Override
				public void visitMethodInsn(int opcode, String owner, String method, String methodDescriptor,
						boolean isInterface) {
					if (isChecked(owner) && !owner.startsWith("[")) {
						checkMethod(owner, method, methodDescriptor);
					}
				}

				@Override
				public void visitFieldInsn(int opcode, String owner, String field, String fieldDescriptor) {
					if (isChecked(owner)) {
						checkField(owner, field);
					}
				}

				@Override
				public void visitTypeInsn(int opcode, String type) {
					checkClass(type);
				}

			};
		}

		void checkClass(@Nullable String type) {
			if (type != null && isChecked(type) && members(type) == null) {
				this.missing.add("class " + type);
			}
		}

		void checkMethod(String owner, String name, String descriptor) {
			Members members = members(owner);
			if (members == null) {
				this.missing.add("class " + owner);
			}
			else if (!members.hasMethod(name + descriptor)) {
				this.missing.add(owner + "." + name + descriptor);
			}
		}

		private void checkField(String owner, String name) {
			Members members = members(owner);
			if (members == null) {
				this.missing.add("class " + owner);
			}
			else if (!members.hasField(name)) {
				this.missing.add(owner + "." + name);
			}
		}

	}

}
