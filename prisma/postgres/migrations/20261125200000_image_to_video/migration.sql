-- AlterTable: image-to-video jobs (POST /v1/h3/image-to-video) keep their still and its options.
ALTER TABLE "Job" ADD COLUMN "stillKey" TEXT;
ALTER TABLE "Job" ADD COLUMN "stillJson" TEXT;
