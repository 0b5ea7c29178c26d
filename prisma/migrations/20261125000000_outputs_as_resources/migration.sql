-- AlterTable
ALTER TABLE "Job" ADD COLUMN "mediaJson" TEXT;

-- AlterTable
ALTER TABLE "Output" ADD COLUMN "startedAt" DATETIME;

-- CreateTable
CREATE TABLE "Batch" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "jobId" TEXT NOT NULL,
    "useGpu" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Batch_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "Job" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "OutboxMessage" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "payloadJson" TEXT NOT NULL,
    "singletonKey" TEXT,
    "runAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "Batch_jobId_idx" ON "Batch"("jobId");

-- CreateIndex
CREATE INDEX "OutboxMessage_createdAt_idx" ON "OutboxMessage"("createdAt");

-- Start-time batches made before batches were rows of their own.
INSERT INTO "Batch" ("id", "jobId", "useGpu", "createdAt")
SELECT "batchId", "jobId", false, MIN("createdAt") FROM "Output" WHERE "batchId" IS NOT NULL GROUP BY "batchId", "jobId";

-- The one process-video unit of work became segment-video (render-output rows follow it).
UPDATE "QueueJob" SET "queue" = 'segment-video' WHERE "queue" = 'process-video';
