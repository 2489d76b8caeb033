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

package io.distlock.autoconfigure;

import io.distlock.fencing.LockCommitGuard;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@link LockCommitGuard}, on by default
 * ({@code distlock.fencing.commit-guard}): a transaction execution listener, which Spring
 * Boot registers with the transaction manager it auto-configures. It binds no properties
 * class: {@link DistLockFencingProperties} documents the property, and needs Spring
 * Boot's SQL support, which an application without a database does not have.
 */
@AutoConfiguration(
		beforeName = "org.springframework.boot.transaction.autoconfigure.TransactionManagerCustomizationAutoConfiguration")
@ConditionalOnClass(name = { "io.distlock.fencing.LockCommitGuard",
		"org.springframework.transaction.TransactionExecutionListener" })
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@ConditionalOnProperty(name = "distlock.fencing.commit-guard", havingValue = "true", matchIfMissing = true)
public final class DistLockCommitGuardAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LockCommitGuard lockCommitGuard() {
		return new LockCommitGuard();
	}

}
