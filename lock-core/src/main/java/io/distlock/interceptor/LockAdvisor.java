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

import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractBeanFactoryPointcutAdvisor;

/**
 * The advisor that applies the {@link LockInterceptor} to every method with a lock
 * definition. Registered as an infrastructure bean, so the auto-proxy creator picks it
 * up; its order places the lock relative to other advice such as transactions.
 */
public class LockAdvisor extends AbstractBeanFactoryPointcutAdvisor {

	private final Pointcut pointcut;

	/**
	 * Create an advisor for the methods the source has lock definitions for.
	 * @param source the lock operation source
	 */
	public LockAdvisor(LockOperationSource source) {
		this.pointcut = new LockOperationSourcePointcut(source);
	}

	@Override
	public Pointcut getPointcut() {
		return this.pointcut;
	}

}
