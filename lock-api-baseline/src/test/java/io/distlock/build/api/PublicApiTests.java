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

package io.distlock.build.api;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link PublicApi}: what a class file's public API looks like as lines.
 *
 * @author The distlock maintainers
 */
class PublicApiTests {

	@Test
	void genericSignaturesAreRenderedAsJavaSource() {
		assertThat(SignatureRenderer.methodSignature(
				"<K::Ljava/lang/Comparable<-TK;>;V:Ljava/lang/Number;>(Ljava/util/Map<TK;+TV;>;[TK;)Ljava/util/List<*>;^TE;"))
			.containsExactly("<K extends java.lang.Comparable<? super K>, V extends java.lang.Number>",
					"java.util.List<?>", "java.util.Map<K, ? extends V>", "K[]", "^", "E");
		assertThat(SignatureRenderer
			.classSignature("<T:Ljava/lang/Object;>Ljava/lang/Object;Ljava/util/function/Supplier<TT;>;"))
			.containsExactly("<T>", "java.lang.Object", "java.util.function.Supplier<T>");
		assertThat(SignatureRenderer.typeSignature("Lfoo/Outer<TT;>.Inner<[I>;"))
			.isEqualTo("foo.Outer<T>.Inner<int[]>");
	}

	@Test
	void publicApiHasOnlyWhatIsUsableOutsideThePackage(@TempDir Path classes) throws IOException {
		copy(classes, ApiFixture.class, ApiFixture.Nested.class, HiddenFixture.class);
		List<String> api = PublicApi.read(classes);
		String type = ApiFixture.class.getName();
		assertThat(api).containsExactly(
				type + ": @java.lang.FunctionalInterface public interface ApiFixture<T extends java.io.Serializable>",
				type + ": public static final java.lang.String NAME = \"fixture\\u000a\"",
				type + ": @java.lang.Deprecated public default int size()",
				type + ": public abstract T apply(java.util.Map<java.lang.String, ? super T>, java.lang.String...)"
						+ " throws java.io.IOException",
				type + "$Nested: public record Nested",
				type + "$Nested: record component java.util.function.Function<java.lang.String, java.lang.Integer> length",
				type + "$Nested: public Nested(java.util.function.Function<java.lang.String, java.lang.Integer>)",
				type + "$Nested: public final boolean equals(java.lang.Object)",
				type + "$Nested: public final int hashCode()",
				type + "$Nested: public final java.lang.String toString()",
				type + "$Nested: public java.util.function.Function<java.lang.String, java.lang.Integer> length()");
	}

	private static void copy(Path classes, Class<?>... types) throws IOException {
		for (Class<?> type : types) {
			String file = type.getName().replace('.', '/') + ".class";
			Path copy = classes.resolve(file);
			Files.createDirectories(copy.getParent());
			try (var content = PublicApiTests.class.getClassLoader().getResourceAsStream(file)) {
				Files.copy(content, copy);
			}
		}
	}

}
