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

package io.distlock.sample.demo;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.distlock.sample.demo.node.DemoNode;

/**
 * How the demo starts a node: the same {@code java}, running {@link DemoNode} (the sample
 * shop with a watch on the demo's process) from the same jar, or class path, as the demo
 * itself.
 */
public final class NodeCommand {

	// Small and quick to start: two or three of them share a laptop with the demo.
	private static final List<String> JVM_OPTIONS = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

	// Runs a main class other than the jar's own from a Spring Boot executable jar.
	private static final String PROPERTIES_LAUNCHER = "org.springframework.boot.loader.launch.PropertiesLauncher";

	private final List<String> launch;

	private NodeCommand(List<String> launch) {
		this.launch = launch;
	}

	/**
	 * Start nodes the way this JVM was started: from its executable jar when run with
	 * {@code java -jar}, else with the node's main class on this JVM's class path.
	 * @return the command
	 */
	public static NodeCommand current() {
		String classPath = System.getProperty("java.class.path", "");
		if (!classPath.contains(File.pathSeparator) && classPath.endsWith(".jar")
				&& Files.isRegularFile(Path.of(classPath))) {
			return jar(Path.of(classPath));
		}
		return new NodeCommand(List.of("-cp", classPath, DemoNode.class.getName()));
	}

	/**
	 * Start nodes from the demo's executable jar.
	 * @param jar the demo's jar
	 * @return the command
	 */
	public static NodeCommand jar(Path jar) {
		if (!Files.isRegularFile(jar)) {
			throw new IllegalArgumentException(
					jar + " does not exist; build it with ./mvnw -pl sample-demo -am package");
		}
		return new NodeCommand(
				List.of("-Dloader.main=" + DemoNode.class.getName(), "-cp", jar.toString(), PROPERTIES_LAUNCHER));
	}

	/**
	 * Return the full command for a node with the given application arguments.
	 * @param arguments the arguments of the application
	 * @return the command line
	 */
	List<String> commandLine(List<String> arguments) {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(JVM_OPTIONS);
		command.addAll(this.launch);
		command.addAll(arguments);
		return command;
	}

	@Override
	public String toString() {
		return String.join(" ", this.launch);
	}

}
