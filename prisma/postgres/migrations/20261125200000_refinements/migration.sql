-- CreateTable
CREATE TABLE "Refinement" (
    "id" TEXT NOT NULL,
    "jobId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "op" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "promptJson" TEXT NOT NULL,
    "edgeCleanupSize" INTEGER,
    "fromVersion" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "creditsUsed" INTEGER NOT NULL,
    "idempotencyKey" TEXT,
    "fingerprint" TEXT NOT NULL,
    "error" TEXT,
    "statsJson" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),

    CONSTRAINT "Refinement_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Refinement_jobId_status_idx" ON "Refinement"("jobId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "Refinement_userId_jobId_idempotencyKey_key" ON "Refinement"("userId", "jobId", "idempotencyKey");

-- AddForeignKey
ALTER TABLE "Refinement" ADD CONSTRAINT "Refinement_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "Job"("id") ON DELETE CASCADE ON UPDATE CASCADE;
