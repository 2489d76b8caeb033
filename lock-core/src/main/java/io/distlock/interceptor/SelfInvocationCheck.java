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

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.asm.ClassReader;
import org.springframework.asm.ClassVisitor;
import org.springframework.asm.Label;
import org.springframework.asm.MethodVisitor;
import org.springframework.asm.Opcodes;
import org.springframework.asm.SpringAsmInfo;
import org.springframework.asm.Type;
import org.springframework.util.ClassUtils;

/**
 * Finds calls from inside a class to its own {@code @DistributedLocked} methods, which a
 * proxy never sees and so runs without the lock, by reading the class's bytecode with
 * Spring's ASM, and logs one warning per call site. A call counts when an instance method
 * of the class (or a lambda in it) invokes a locked method of the same class; calls from
 * static methods and compiler-made bridges do not.
 */
final class SelfInvocationCheck {

	// Logs as the interceptor: the public type users set log levels for.
	private static final Log logger = LogFactory.getLog(LockInterceptor.class);

	private SelfInvocationCheck() {
	}

	/**
	 * Log a warning for each call, inside the class that declares it, of a locked method.
	 * @param operations the operations of the application's locked methods
	 */
	static void warnAbout(Collection<LockOperation> operations) {
		Map<Class<?>, Map<String, Method>> byClass = new LinkedHashMap<>();
		for (LockOperation operation : operations) {
			Method method = operation.method();
			if (!method.getDeclaringClass().isInterface()) {
				byClass.computeIfAbsent(method.getDeclaringClass(), (type) -> new LinkedHashMap<>())
					.put(method.getName() + Type.getMethodDescriptor(method), method);
			}
		}
		byClass.forEach((type, locked) -> findCalls(type, locked).forEach((call) -> logger.warn(call)));
	}

	/**
	 * Return a warning for each call, inside the class, of one of the given methods.
	 * @param type the class that declares the methods
	 * @param locked the locked methods by name and descriptor
	 * @return the warnings, in the order of the class file
	 */
	static List<String> findCalls(Class<?> type, Map<String, Method> locked) {
		String resource = ClassUtils.getClassFileName(type);
		try (InputStream in = type.getResourceAsStream(resource)) {
			if (in == null) {
				return List.of();
			}
			CallFinder finder = new CallFinder(type, locked);
			new ClassReader(in).accept(finder, ClassReader.SKIP_FRAMES);
			return finder.warnings;
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("Could not read the bytecode of " + type.getName() + " to look for self-invocations", ex);
			return List.of();
		}
	}

	private static String describe(Class<?> type, String name, Type[] parameters) {
		return ClassUtils.getShortName(type) + "." + name + "("
				+ Arrays.stream(parameters)
					.map((parameter) -> ClassUtils.getShortName(parameter.getClassName()))
					.collect(Collectors.joining(", "))
				+ ")";
	}

	private static final class CallFinder extends ClassVisitor {

		private final Class<?> type;

		private final String internalName;

		private final Map<String, Method> locked;

		private final List<String> warnings = new java.util.ArrayList<>();

		private @Nullable String sourceFile;

		CallFinder(Class<?> type, Map<String, Method> locked) {
			super(SpringAsmInfo.ASM_VERSION);
			this.type = type;
			this.internalName = Type.getInternalName(type);
			this.locked = locked;
		}

		@Override
		public void visitSource(@Nullable String source, @Nullable String debug) {
			this.sourceFile = source;
		}

		@Override
		public @Nullable MethodVisitor visitMethod(int access, String name, String descriptor,
				@Nullable String signature, String @Nullable [] exceptions) {
			boolean lambda = name.startsWith("lambda$");
			if ((access & Opcodes.ACC_STATIC) != 0 || (access & Opcodes.ACC_BRIDGE) != 0
					|| ((access & Opcodes.ACC_SYNTHETIC) != 0 && !lambda)) {
				return null;
			}
			// javac names a lambda's body lambda$<enclosing method>$<n>.
			String caller = lambda
					? describe(this.type, name.split("\\$")[1], new Type[0]).replace("()", "(..)") + " (in a lambda)"
					: describe(this.type, name, Type.getArgumentTypes(descriptor));
			return new MethodVisitor(SpringAsmInfo.ASM_VERSION) {

				private int line = -1;

				@Override
				public void visitLineNumber(int line, Label start) {
					this.line = line;
				}

				@Override
				public void visitMethodInsn(int opcode, String owner, String calledName, String calledDescriptor,
						boolean isInterface) {
					Method called = CallFinder.this.locked.get(calledName + calledDescriptor);
					if (called != null && opcode != Opcodes.INVOKESTATIC
							&& owner.equals(CallFinder.this.internalName)) {
						CallFinder.this.warnings.add(warning(caller, called, this.line));
					}
				}

			};
		}

		private String warning(String caller, Method called, int line) {
			String site = (this.sourceFile != null && line > 0) ? " (" + this.sourceFile + ":" + line + ")" : "";
			return "@DistributedLocked method '" + describe(this.type, called.getName(), Type.getArgumentTypes(called))
					+ "' is called from inside its own class, by '" + caller + "'" + site
					+ ": the call does not go through the proxy, so it runs WITHOUT the lock. Call it through "
					+ "another bean, inject the bean's proxy and call it on that (an @Lazy self-reference or an "
					+ "ObjectProvider), or weave the aspect instead of proxying (distlock.aop.mode=aspectj with "
					+ "io.distlock:lock-aspectj). Turn this check off with "
					+ "distlock.aop.self-invocation-check=false.";
		}

	}

}
