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
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.springframework.asm.ClassReader;
import org.springframework.asm.Opcodes;

/**
 * The public API of a module: the lines of every type that code outside its package can
 * use (public top-level types, and their public member types, or protected ones in a
 * class that can be extended), read from the compiled classes without loading them.
 *
 * @author The distlock maintainers
 */
public final class PublicApi {

	private PublicApi() {
	}

	/**
	 * Reads the public API of the classes under a directory.
	 * @param classes the output directory of the compiler, such as {@code target/classes}
	 * @return the lines, types in name order, each type's declaration before its members
	 */
	public static List<String> read(Path classes) {
		Map<String, ClassApi> types = new TreeMap<>();
		try (Stream<Path> files = Files.walk(classes)) {
			files.filter((file) -> file.toString().endsWith(".class"))
				.filter((file) -> !file.getFileName().toString().endsWith("-info.class"))
				.forEach((file) -> {
					ClassApi type = readClass(file);
					types.put(type.name, type);
				});
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		List<String> lines = new ArrayList<>();
		for (ClassApi type : types.values()) {
			if (isAccessible(type, types)) {
				lines.addAll(type.lines());
			}
		}
		return lines;
	}

	private static ClassApi readClass(Path file) {
		try (InputStream content = Files.newInputStream(file)) {
			ClassApi type = new ClassApi();
			new ClassReader(content).accept(type, ClassReader.SKIP_CODE | ClassReader.SKIP_FRAMES);
			return type;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static boolean isAccessible(ClassApi type, Map<String, ClassApi> types) {
		if ((type.access & Opcodes.ACC_SYNTHETIC) != 0 || type.local) {
			return false;
		}
		if (type.outerName == null) {
			return (type.access & Opcodes.ACC_PUBLIC) != 0;
		}
		ClassApi outer = types.get(type.outerName);
		if (outer == null || !isAccessible(outer, types)) {
			return false;
		}
		return (type.access & Opcodes.ACC_PUBLIC) != 0
				|| ((type.access & Opcodes.ACC_PROTECTED) != 0 && !outer.isFinal());
	}

}
