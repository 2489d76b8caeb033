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

package io.distlock.interceptor;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Compiles a class at test time the way a build without {@code -parameters} would, so
 * that its parameter names are not in the class file.
 */
final class CompiledFixture {

	private CompiledFixture() {
	}

	/**
	 * Compile one top-level class in the default package, without {@code -parameters},
	 * and load it with a class loader whose parent is the tests' class loader.
	 * @param classes the directory to write the source and the class file to
	 * @param className the simple name of the class
	 * @param source the class's source code
	 * @return the loaded class
	 * @throws Exception if the class cannot be written or loaded
	 */
	static Class<?> compileWithoutParametersFlag(Path classes, String className, String source) throws Exception {
		Path sourceFile = classes.resolve(className + ".java");
		Files.writeString(sourceFile, source);
		JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
		int status = compiler.run(null, null, null, "-proc:none", "-classpath", System.getProperty("java.class.path"),
				"-d", classes.toString(), sourceFile.toString());
		assertThat(status).as("javac exit status").isZero();
		URLClassLoader loader = new URLClassLoader(new URL[] { classes.toUri().toURL() },
				CompiledFixture.class.getClassLoader());
		Class<?> compiled = loader.loadClass(className);
		assertThat(compiled.getDeclaredMethods()).allSatisfy((method) -> assertThat(method.getParameters())
			.allSatisfy((parameter) -> assertThat(parameter.isNamePresent()).isFalse()));
		return compiled;
	}

}
