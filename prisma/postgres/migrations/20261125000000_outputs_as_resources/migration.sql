-- AlterTable
ALTER TABLE "Job" ADD COLUMN "mediaJson" TEXT;

-- AlterTable
ALTER TABLE "Output" ADD COLUMN "startedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "Batch" (
    "id" TEXT NOT NULL,
    "jobId" TEXT NOT NULL,
    "useGpu" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Batch_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OutboxMessage" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "payloadJson" TEXT NOT NULL,
    "singletonKey" TEXT,
    "runAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OutboxMessage_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Batch_jobId_idx" ON "Batch"("jobId");

-- CreateIndex
CREATE INDEX "OutboxMessage_createdAt_idx" ON "OutboxMessage"("createdAt");

-- AddForeignKey
ALTER TABLE "Batch" ADD CONSTRAINT "Batch_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "Job"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Start-time batches made before batches were rows of their own.
INSERT INTO "Batch" ("id", "jobId", "useGpu", "createdAt")
SELECT "batchId", "jobId", false, MIN("createdAt") FROM "Output" WHERE "batchId" IS NOT NULL GROUP BY "batchId", "jobId";

-- The one process-video unit of work became segment-video (render-output rows follow it).
UPDATE "QueueJob" SET "queue" = 'segment-video' WHERE "queue" = 'process-video';
