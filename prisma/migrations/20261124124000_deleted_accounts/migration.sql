-- CreateTable
CREATE TABLE "DeletedAccount" (
    "firebaseUid" TEXT NOT NULL,
    "deletedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DeletedAccount_pkey" PRIMARY KEY ("firebaseUid")
);
