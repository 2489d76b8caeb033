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

import java.util.function.Supplier;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import io.distlock.LockTemplate;

import org.springframework.aop.ProxyMethodInvocation;

/**
 * The proxy's advice for {@code @DistributedLocked} methods: runs each call under its
 * lock through {@link LockAspectSupport}, the policies the woven aspect applies too.
 *
 * <p>
 * A proxy sees only the calls that come through it: a call from inside the bean
 * ({@code this.refundOne(id)}) runs unlocked. Once the application's singletons exist,
 * the interceptor reads the bytecode of every class with locked methods and logs a
 * warning for each such call it finds, unless
 * {@linkplain #setSelfInvocationCheck(boolean) turned off}.
 */
public class LockInterceptor extends LockAspectSupport implements MethodInterceptor {

	private boolean selfInvocationCheck = true;

	/**
	 * Create an interceptor. The template is looked up on the first locked call, so that
	 * creating the interceptor does not initialize Redis beans early.
	 * @param source the lock definitions of methods
	 * @param template supplies the template that takes the locks
	 */
	public LockInterceptor(LockOperationSource source, Supplier<LockTemplate> template) {
		setLockOperationSource(source);
		setLockTemplate(template);
	}

	/**
	 * Set whether to look, at startup, for calls from inside a bean to its own locked
	 * methods, which the proxy cannot lock, and warn about each. On by default.
	 * @param selfInvocationCheck whether to check
	 */
	public void setSelfInvocationCheck(boolean selfInvocationCheck) {
		this.selfInvocationCheck = selfInvocationCheck;
	}

	@Override
	public void afterSingletonsInstantiated() {
		super.afterSingletonsInstantiated();
		LockOperationSource source = getLockOperationSource();
		if (this.selfInvocationCheck && source != null) {
			SelfInvocationCheck.warnAbout(source.getLockOperations());
		}
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		return execute(new ProxyInvoker(invocation), invocation.getThis(), invocation.getMethod(),
				invocation.getArguments());
	}

	/**
	 * Proceeds down the proxy's chain; a copy proceeds on a clone of the invocation,
	 * through the interceptors after this one again.
	 */
	private record ProxyInvoker(MethodInvocation invocation) implements LockInvoker {

		@Override
		public @Nullable Object invoke() throws Throwable {
			return this.invocation.proceed();
		}

		@Override
		public LockInvoker copy() {
			return (this.invocation instanceof ProxyMethodInvocation proxied)
					? new ProxyInvoker(proxied.invocableClone()) : this;
		}

	}

}
