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

package io.distlock.aspectj;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import io.distlock.annotation.DistributedLocked;
import io.distlock.interceptor.InvalidLockOperationException;
import io.distlock.interceptor.LockOperation;
import io.distlock.interceptor.LockOperationSource;

import org.springframework.aop.support.AopUtils;
import org.springframework.core.KotlinDetector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Checks each bean as it is created, for {@code distlock.aop.mode=aspectj}: parses and
 * validates its {@code @DistributedLocked} methods (with no proxy to match them, nothing
 * else would before the first call), and fails the startup, naming the class, if
 * {@link DistributedLockedAspect} was not woven into an annotated method, which would
 * otherwise run unlocked. A Kotlin {@code suspend} function is refused too: woven, its
 * body runs again at each resumption, so the aspect cannot hold one lock across it.
 * {@link LockAspectConfigurer} runs it on each bean after its initialization.
 */
final class LockWeavingCheck {

	private final LockOperationSource source;

	private final Set<Class<?>> checked = ConcurrentHashMap.newKeySet();

	LockWeavingCheck(LockOperationSource source) {
		this.source = source;
	}

	/**
	 * Check the locked methods of a bean's class, once per class.
	 * @param bean the bean, initialized
	 * @throws InvalidLockOperationException if a locked method was not woven, or is a
	 * Kotlin {@code suspend} function
	 */
	void check(Object bean) {
		Class<?> userClass = ClassUtils.getUserClass(AopUtils.getTargetClass(bean));
		if (this.checked.add(userClass) && this.source.isCandidateClass(userClass)) {
			check(userClass);
		}
	}

	private void check(Class<?> userClass) {
		List<Method> notWoven = new ArrayList<>();
		ReflectionUtils.doWithMethods(userClass, (method) -> {
			LockOperation operation = this.source.getLockOperation(method, userClass);
			if (operation == null) {
				return;
			}
			Method locked = operation.method();
			if (KotlinDetector.isSuspendingFunction(locked)) {
				throw new InvalidLockOperationException(locked, null, "it is a Kotlin suspend function, which "
						+ "DistributedLockedAspect cannot lock: woven, its body runs again at each resumption. Lock it "
						+ "with a proxy (distlock.aop.mode=proxy), or return a Mono");
			}
			if (!isWoven(locked) && !notWoven.contains(locked)) {
				notWoven.add(locked);
			}
		}, (method) -> !method.isSynthetic() && method.getDeclaringClass() != Object.class
				&& AnnotatedElementUtils.hasAnnotation(method, DistributedLocked.class));
		if (!notWoven.isEmpty()) {
			throw new InvalidLockOperationException(notWoven.get(0), null, "distlock.aop.mode is aspectj, but "
					+ "DistributedLockedAspect was not woven into " + userClass.getName() + " (not into "
					+ notWoven.stream().map(Method::getName).collect(Collectors.joining(", "))
					+ "), so the lock would silently not apply. Weave the class at compile time (the AspectJ Maven "
					+ "plugin, or Gradle's io.freefair.aspectj, with io.distlock:lock-aspectj as an aspect library) "
					+ "or at load time (-javaagent:aspectjweaver.jar and a META-INF/aop.xml that includes the "
					+ "class); put the annotation on the class's own method, not only on an interface it implements; "
					+ "or use distlock.aop.mode=proxy");
		}
	}

	/**
	 * Tell whether the aspect's around advice was woven into the method: AspectJ then
	 * moves the method's body into a method of the same class named after it, with
	 * {@code _aroundBody} and a number.
	 */
	static boolean isWoven(Method method) {
		String body = method.getName() + "_aroundBody";
		for (Method declared : method.getDeclaringClass().getDeclaredMethods()) {
			if (declared.getName().startsWith(body)) {
				return true;
			}
		}
		return false;
	}

}
