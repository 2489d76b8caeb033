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

import org.aspectj.lang.ProceedingJoinPoint;
import org.aspectj.lang.annotation.Around;
import org.aspectj.lang.annotation.Aspect;
import org.aspectj.lang.annotation.Pointcut;
import org.aspectj.lang.reflect.MethodSignature;
import org.jspecify.annotations.Nullable;

import io.distlock.interceptor.LockAspectSupport;

import org.springframework.beans.factory.DisposableBean;

/**
 * Locks {@code @DistributedLocked} methods from inside their classes: woven into them by
 * AspectJ, at compile time (this module as an aspect library of the AspectJ Maven plugin)
 * or at load time ({@code -javaagent:aspectjweaver.jar}; this module's
 * {@code META-INF/aop.xml} names the aspect). Unlike a proxy it sees every call, from
 * another bean or from the class itself ({@code this.refundOne(id)}), and locks private
 * and final methods and Kotlin classes that are not {@code open}.
 *
 * <p>
 * It runs the same {@link LockAspectSupport} as the proxy's
 * {@link io.distlock.interceptor.LockInterceptor}: the same operation source, validation,
 * key evaluation, template and failure policies. The aspect is a singleton per class
 * loader, which the auto-configuration configures once per application context when
 * {@code distlock.aop.mode=aspectj} ({@link LockAspectConfigurer}): a call runs with the
 * operation source, template and bean factory of the context that created the woven
 * object, so that several contexts may live in one JVM (the test context cache, a parent
 * and a child), and closing one leaves the others configured. An object that no context
 * created (made with {@code new}) takes the configuration of the one context configured,
 * and fails while several are. Before any context configured it, and once the object's
 * context is closed, a call of a woven method fails rather than running unlocked; the
 * aspect may also be configured by hand, through its own setters, for use without Spring
 * Boot. The annotation must be on the woven class's own method (directly, or on an
 * annotation of it): one declared only on an interface the class implements is not
 * matched, and the startup check of {@link LockAspectConfigurer} says so.
 */
@Aspect
public class DistributedLockedAspect extends LockAspectSupport implements DisposableBean {

	private final ContextLockAspects contexts = new ContextLockAspects();

	/**
	 * The execution of an instance method annotated with {@code @DistributedLocked}.
	 */
	@Pointcut("execution(@io.distlock.annotation.DistributedLocked !static * *(..))")
	void lockedMethod() {
	}

	/**
	 * The execution of an instance method annotated with an annotation that is itself
	 * annotated with {@code @DistributedLocked}.
	 */
	@Pointcut("execution(@(@io.distlock.annotation.DistributedLocked *) !static * *(..))")
	void metaLockedMethod() {
	}

	/**
	 * Run the method under its lock.
	 * @param joinPoint the method's execution
	 * @return what the method returned, or what its failure policy gives instead
	 * @throws Throwable what the method threw, or why its lock was not acquired
	 */
	@Around("lockedMethod() || metaLockedMethod()")
	public @Nullable Object lock(ProceedingJoinPoint joinPoint) throws Throwable {
		Method method = ((MethodSignature) joinPoint.getStaticPart().getSignature()).getMethod();
		Object target = joinPoint.getTarget();
		ContextLockAspect context = this.contexts.find(target, method);
		if (context != null) {
			return context.run(joinPoint::proceed, target, method, joinPoint.getArgs());
		}
		return execute(joinPoint::proceed, target, method, joinPoint.getArgs());
	}

	ContextLockAspects contexts() {
		return this.contexts;
	}

	/**
	 * Forget the beans that the aspect was configured with by hand, through its own
	 * setters.
	 */
	@Override
	public void destroy() {
		clear();
	}

}
