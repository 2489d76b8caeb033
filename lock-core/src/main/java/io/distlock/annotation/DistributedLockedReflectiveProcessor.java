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
package io.distlock.annotation;

import java.lang.reflect.Method;
import java.util.Arrays;

import org.springframework.aot.hint.BindingReflectionHintsRegistrar;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.annotation.SimpleReflectiveProcessor;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Registers what a {@link DistributedLocked @DistributedLocked} method needs by
 * reflection in a native image: the method itself, its fallback method (called by
 * reflection when the lock is busy), and, when a key refers to the arguments, the
 * properties of the argument types, which SpEL reads by reflection
 * ({@code #order.customer.id}).
 *
 * <p>
 * The fallback is looked up on the class that declares the annotated method, as the
 * advice looks it up on the target class; one declared only in a subclass needs a hint of
 * the application's own. Beans that a key calls ({@code @keys.forOrder(#order)}) need one
 * too, as the bean type is not known here.
 */
class DistributedLockedReflectiveProcessor extends SimpleReflectiveProcessor {

	private final BindingReflectionHintsRegistrar bindingRegistrar = new BindingReflectionHintsRegistrar();

	@Override
	protected void registerMethodHint(ReflectionHints hints, Method method) {
		super.registerMethodHint(hints, method);
		DistributedLocked locked = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLocked.class);
		if (locked == null) {
			return;
		}
		if (!locked.fallbackMethod().isEmpty()) {
			Method fallback = ReflectionUtils.findMethod(method.getDeclaringClass(), locked.fallbackMethod(),
					method.getParameterTypes());
			// A missing fallback fails the startup with a clear message; no hint can
			// help.
			if (fallback != null) {
				hints.registerMethod(fallback, ExecutableMode.INVOKE);
			}
		}
		if (refersToArguments(locked)) {
			this.bindingRegistrar.registerReflectionHints(hints, method.getGenericParameterTypes());
		}
	}

	private static boolean refersToArguments(DistributedLocked locked) {
		// '#' starts every variable (#order, #p0, #root): a literal key reads nothing.
		return locked.key().contains("#") || Arrays.stream(locked.keys()).anyMatch((key) -> key.contains("#"));
	}

}
